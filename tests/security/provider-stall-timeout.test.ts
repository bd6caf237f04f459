import fs from 'node:fs';
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfigEnv } from '../../src-main/core/config/env';
import { createModel, type Part } from '../../src-main/core/llm';
import { startScriptedModel, type ScriptedModel } from '../support/scriptedModel';
import { cliEnv, cliInProcess, tempDataDir } from './support/cliHarness';

/**
 * Attack: a provider (or a proxy in front of it) accepts the request, sends the headers
 * and a first chunk, then goes silent without closing the connection; or accepts the
 * connection and never answers at all. The run must end as failed
 * (`provider_unavailable`) after the configured timeout, with a message that names it.
 */

let server: ScriptedModel | null = null;
let dataDir = '';
const sockets: net.Socket[] = [];
let blackHole: net.Server | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => (blackHole ? blackHole.close(() => r()) : r()));
  blackHole = null;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

const env = (vars: Record<string, string>) => loadConfigEnv('/nonexistent-openai4s-test-dir', vars);

async function collect(parts: AsyncIterable<Part>): Promise<Part[]> {
  const out: Part[] = [];
  for await (const p of parts) out.push(p);
  return out;
}

/** Headers and one text chunk, then silence for far longer than any test runs. */
const STALL = { reply: [{ text: 'The answer is' }, { delayMs: 3_600_000 }] };

describe('a provider stream that stalls', () => {
  it('ends with an idle-timeout error naming OPENAI4S_PROVIDER_IDLE_TIMEOUT_S', async () => {
    server = await startScriptedModel([STALL]);
    const model = createModel('openai', {
      env: env({ OPENAI4S_OPENAI_API_KEY: 'k-stall-0000', OPENAI4S_OPENAI_BASE_URL: server.baseUrl, OPENAI4S_PROVIDER_IDLE_TIMEOUT_S: '1' }),
    });
    const parts = await collect(model.stream({ messages: [{ role: 'user', content: 'hi' }] }));
    const last = parts[parts.length - 1]!;
    expect(last).toMatchObject({ type: 'error', error: { errorType: 'timeout', code: 'idle_timeout' } });
    expect(last.type === 'error' && last.error.message).toMatch(/sent nothing for 1 s.*raise OPENAI4S_PROVIDER_IDLE_TIMEOUT_S/);
    // The stalled connection was closed, not left open.
    await server.waitForRequestsEnded(1);
    expect(server.requests[0]!.clientClosedAt).not.toBeNull();
  });

  it('a server that accepts and never answers ends with a connect-timeout error', async () => {
    blackHole = net.createServer((s) => sockets.push(s));
    await new Promise<void>((r) => blackHole!.listen(0, '127.0.0.1', () => r()));
    const port = (blackHole.address() as net.AddressInfo).port;
    const model = createModel('openai', {
      env: env({ OPENAI4S_OPENAI_API_KEY: 'k-stall-0000', OPENAI4S_OPENAI_BASE_URL: `http://127.0.0.1:${port}/v1`, OPENAI4S_PROVIDER_CONNECT_TIMEOUT_S: '1' }),
      retry: { maxRetries: 0 },
    });
    const parts = await collect(model.stream({ messages: [{ role: 'user', content: 'hi' }] }));
    const last = parts[parts.length - 1]!;
    expect(last).toMatchObject({ type: 'error', error: { errorType: 'timeout', code: 'connect_timeout' } });
    expect(last.type === 'error' && last.error.message).toMatch(/did not start answering within 1 s.*OPENAI4S_PROVIDER_CONNECT_TIMEOUT_S/);
  });

  it('a malformed timeout setting is refused with the variable named', () => {
    expect(() =>
      createModel('openai', { env: env({ OPENAI4S_OPENAI_API_KEY: 'k-stall-0000', OPENAI4S_PROVIDER_IDLE_TIMEOUT_S: '2m' }) }),
    ).toThrow(/OPENAI4S_PROVIDER_IDLE_TIMEOUT_S=2m is not a timeout: give a number of seconds/);
  });

  it('`openai4s run` ends the run as failed with provider_unavailable', async () => {
    server = await startScriptedModel([STALL]);
    dataDir = tempDataDir('stall');
    const vars = cliEnv(dataDir, server.baseUrl, 'k-stall-0000', { OPENAI4S_PROVIDER_IDLE_TIMEOUT_S: '1' });
    const run = await cliInProcess(['run', 'What is the answer?'], vars);
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/run failed \(provider_unavailable\): .*OPENAI4S_PROVIDER_IDLE_TIMEOUT_S/);
    const sessions = JSON.parse((await cliInProcess(['sessions', '--json'], vars)).stdout) as { id: string }[];
    const show = JSON.parse((await cliInProcess(['show', sessions[0]!.id, '--json'], vars)).stdout) as { runs: { status: string; failureCode: string }[] };
    expect(show.runs[0]).toMatchObject({ status: 'failed', failureCode: 'provider_unavailable' });
  });
});
