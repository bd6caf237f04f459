import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_MESSAGE_CHARS, runRoutes } from '../../src-preload/contract/runs';
import { startScriptedModel, type ScriptedModel } from '../support/scriptedModel';
import { cliEnv, cliInProcess, tempDataDir } from './support/cliHarness';

/**
 * Case: the app refuses a message over its size limit at the IPC boundary, but the CLI
 * called the runner directly and sent anything (megabytes to the provider, into the
 * ledger). The CLI must refuse with the same limit, before anything is stored or sent.
 */

let server: ScriptedModel | null = null;
let dataDir = '';
afterEach(async () => {
  await server?.close();
  server = null;
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('openai4s run with an oversized message', () => {
  it('is refused with the app\'s limit named; nothing is stored or sent', async () => {
    server = await startScriptedModel([{ reply: [{ text: 'should not be asked' }] }]);
    dataDir = tempDataDir('msgsize');
    const env = cliEnv(dataDir, server.baseUrl, 'k-size-0000');
    const tooLong = 'x'.repeat(MAX_MESSAGE_CHARS + 1);
    // The app's route refuses this message: the CLI agrees with it.
    expect(runRoutes['run.submit'].input.safeParse({ sessionId: 's', mutationId: 'm', message: tooLong }).success).toBe(false);

    const result = await cliInProcess(['run', tooLong], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('the message is longer than 20,000 characters');
    expect(server.requests).toHaveLength(0);
    expect(JSON.parse((await cliInProcess(['sessions', '--json'], env)).stdout)).toEqual([]);
  });

  it('a message at the limit is accepted', async () => {
    server = await startScriptedModel([{ reply: [{ text: 'ok' }] }, { reply: [{ text: 'ok' }] }]);
    dataDir = tempDataDir('msgsize');
    const env = cliEnv(dataDir, server.baseUrl, 'k-size-0000');
    await cliInProcess(['run', 'y'.repeat(MAX_MESSAGE_CHARS), '--max-turns', '1'], env);
    expect(server.requests.length).toBeGreaterThan(0);
  });
});
