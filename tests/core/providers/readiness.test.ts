/**
 * Readiness: a key where one is needed, and an endpoint on this machine only while it
 * answers (any HTTP status: the server runs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { findProvider } from '../../../src-main/core/config/providerCatalog';
import { resolveProvider } from '../../../src-main/core/config/providers';
import { isLocalUrl, probeEndpoint, readinessOf } from '../../../src-main/core/providers/readiness';
import { freePort } from '../../support/daemons';
import { envOf } from '../llm/helpers';

const servers: http.Server[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

async function serve(status: number): Promise<string> {
  const server = http.createServer((_req, res) => {
    res.writeHead(status);
    res.end('{}');
  });
  servers.push(server);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
}

describe('isLocalUrl', () => {
  it('names loopback hosts only', () => {
    for (const url of ['http://127.0.0.1:11434/v1', 'http://localhost:8080/v1', 'http://[::1]:8000/v1', 'http://127.1.2.3/v1', 'http://ollama.localhost/v1'])
      expect(isLocalUrl(url), url).toBe(true);
    for (const url of ['https://api.openai.com/v1', 'https://ark.cn-beijing.volces.com/api/plan/v3', 'http://10.0.0.5:11434/v1', 'not a url'])
      expect(isLocalUrl(url), url).toBe(false);
  });
});

describe('probeEndpoint', () => {
  it('a server that answers counts, whatever its status', async () => {
    expect(await probeEndpoint(await serve(200))).toEqual({ answered: true });
    expect(await probeEndpoint(await serve(404))).toEqual({ answered: true });
  });

  it('a closed port is "connection refused"', async () => {
    const port = await freePort();
    expect(await probeEndpoint(`http://127.0.0.1:${port}/v1`)).toEqual({ answered: false, detail: 'connection refused', detailCode: 'refused' });
  });

  it('a server that never answers is given up on after the timeout', async () => {
    const server = http.createServer(() => undefined);
    servers.push(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
    const answer = await probeEndpoint(url, { timeoutMs: 200 });
    expect(answer).toEqual({ answered: false, detail: 'no answer within 0.2 s', detailCode: 'timeout', timeoutS: 0.2 });
    server.closeAllConnections();
  });
});

describe('readinessOf', () => {
  const resolved = (id: string, vars: Record<string, string>) => resolveProvider(findProvider(id)!, envOf(vars));
  const never = () => Promise.reject(new Error('a remote provider is not contacted'));

  it('a provider that needs a key and has none is no_key, without any call', async () => {
    expect(await readinessOf(resolved('ark', {}), never)).toEqual({ state: 'no_key' });
  });

  it('a remote provider with a key is ready without a call', async () => {
    expect(await readinessOf(resolved('ark', { OPENAI4S_ARK_API_KEY: 'ark-real-looking-key-1234' }), never)).toEqual({ state: 'ready' });
  });

  it('Ollama is ready only while its endpoint answers, and says why not otherwise', async () => {
    const now = () => new Date('2026-01-02T03:04:05Z');
    const up = await readinessOf(resolved('ollama', { OPENAI4S_OLLAMA_BASE_URL: await serve(200) }), (u) => probeEndpoint(u), now);
    expect(up).toEqual({ state: 'ready', checkedAt: '2026-01-02T03:04:05.000Z' });
    const port = await freePort();
    const down = await readinessOf(resolved('ollama', { OPENAI4S_OLLAMA_BASE_URL: `http://127.0.0.1:${port}/v1` }), (u) => probeEndpoint(u), now);
    expect(down).toEqual({ state: 'not_running', checkedAt: '2026-01-02T03:04:05.000Z', detail: 'connection refused', detailCode: 'refused' });
  });

  it('any provider pointed at this machine is checked the same way', async () => {
    const port = await freePort();
    const r = resolved('openai', { OPENAI4S_OPENAI_API_KEY: 'sk-local-server-key-99', OPENAI4S_OPENAI_BASE_URL: `http://localhost:${port}/v1` });
    expect((await readinessOf(r, (u) => probeEndpoint(u))).state).toBe('not_running');
  });
});
