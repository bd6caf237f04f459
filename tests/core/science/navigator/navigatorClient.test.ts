import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { NavigatorClient, NavigatorError } from '../../../../src-main/core/science/navigator/client';
import { fixtureText, frame, startNavigatorServer, streamFrames } from './navigatorServer';

let server: Awaited<ReturnType<typeof startNavigatorServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

const KEY = 'bohr-test-key-0123456789';
const never = new AbortController().signal;
const client = (base: string, extra: Partial<ConstructorParameters<typeof NavigatorClient>[0]> = {}) =>
  new NavigatorClient({ key: KEY, baseUrl: base, historyPauseMs: 1, sleep: async () => undefined, ...extra });

const EXPECTED_TEXT_START = '## CRISPR-Cas9 in gene therapy, 2021-2024';

describe('Science Navigator client over a loopback server', () => {
  it('creates the session, reads the whole stream and merges it, sending the key only as a Bearer header to the configured host', async () => {
    server = await startNavigatorServer({});
    const result = await client(server.base).ask({ question: 'CRISPR-Cas9 progress in gene therapy since 2021?' }, never);
    expect(result.via).toBe('stream');
    expect(result.streamProblem).toBeNull();
    expect(result.answers).toHaveLength(1);
    expect(result.answers[0]!.status).toBe('complete');
    expect(result.answers[0]!.text.startsWith(EXPECTED_TEXT_START)).toBe(true);
    expect(result.answers[0]!.used).toHaveLength(2);
    // Session then stream; no history read was needed.
    expect(server.seen.map((s) => `${s.method} ${s.path}`)).toEqual([
      'POST /openapi/v2/sigma-search/api/v4/ai_search/sessions',
      'GET /openapi/v2/sigma-search/api/v3/sse/ai_search/v1/sn-7f3c2a/stream',
    ]);
    for (const s of server.seen) expect(s.headers.authorization).toBe(`Bearer ${KEY}`);
    const body = JSON.parse(server.seen[0]!.body) as { query: string; scene: string; SNPReq: { channel: { uiInfo: { content: { text: string } } } } };
    expect(body.scene).toBe('adk_science_navigator');
    expect(body.SNPReq.channel.uiInfo.content.text).toBe('CRISPR-Cas9 progress in gene therapy since 2021?');
  });

  it('recovers a stream cut mid-answer from the history endpoint, ending with the same answer', async () => {
    server = await startNavigatorServer({});
    const whole = await client(server.base).ask({ question: 'q?' }, never);
    await server.close();
    server = await startNavigatorServer({ stopAfter: { frames: 13, how: 'cut' } });
    const cut = await client(server.base).ask({ question: 'q?' }, never);
    expect(cut.via).toBe('history');
    expect(cut.streamProblem).toMatch(/stream (broke|ended before the answer finished)/);
    const strip = (r: typeof whole) => r.answers.map((a) => ({ ...a, used: a.used.map((u) => ({ ...u, receipt: null })), all: a.all.map((u) => ({ ...u, receipt: null })) }));
    expect(strip(cut)).toEqual(strip(whole));
    expect(server.seen.at(-1)!.path).toBe('/openapi/v2/sigma-search/api/v4/sn-7f3c2a/history');
  });

  it('drops a stream that sends a line over 1 MiB and recovers from history, naming the limit', async () => {
    const frames = streamFrames();
    const huge = `event:data\ndata:${'x'.repeat(2 * 1024 * 1024)}\n\n`;
    server = await startNavigatorServer({ frames: [...frames.slice(0, 3), huge, ...frames.slice(3)] });
    const result = await client(server.base).ask({ question: 'q?' }, never);
    expect(result.via).toBe('history');
    expect(result.streamProblem).toBe('the stream broke (the stream sent a line over 1,048,576 characters, the most the app reads in one; the stream was dropped)');
    expect(result.answers[0]!.status).toBe('complete');
  });

  it('refuses a history answer over 16 MiB and a session answer over 1 MiB, or one that is not an object, with a named error', async () => {
    server = await startNavigatorServer({ stopAfter: { frames: 2, how: 'cut' }, history: [{ body: JSON.stringify({ code: 0, data: { historyData: [], pad: 'p'.repeat(17 * 1024 * 1024) } }) }] });
    await expect(client(server.base).ask({ question: 'q?' }, never)).rejects.toThrow(/Science Navigator: the history answer is over 16,777,216 bytes/);
    await server.close();
    server = await startNavigatorServer({ session: { body: { code: 0, data: { sessionId: 's' }, pad: 'p'.repeat(2 * 1024 * 1024) } } });
    await expect(client(server.base).ask({ question: 'q?' }, never)).rejects.toThrow(/the answer to creating a session is over 1,048,576 bytes/);
    await server.close();
    server = await startNavigatorServer({ session: { body: 42 } });
    await expect(client(server.base).ask({ question: 'q?' }, never)).rejects.toThrow(/creating a session answered JSON that is not an object/);
  });

  it('gives up a stalled stream and reads history', async () => {
    server = await startNavigatorServer({ stopAfter: { frames: 4, how: 'stall' } });
    const result = await client(server.base, { stallMs: 150 }).ask({ question: 'q?' }, never);
    expect(result.via).toBe('history');
    expect(result.streamProblem).toMatch(/stalled/);
    expect(result.answers[0]!.status).toBe('complete');
  });

  it('reads history again while the service still generates (need_stream true), then takes the finished answer', async () => {
    const pending = JSON.stringify({ code: 0, data: { need_stream: true, historyData: [] } });
    server = await startNavigatorServer({ stopAfter: { frames: 2, how: 'cut' }, history: [{ body: pending }, { body: fixtureText('history.json') }] });
    const result = await client(server.base).ask({ question: 'q?' }, never);
    expect(result.via).toBe('history');
    expect(result.answers[0]!.status).toBe('complete');
    expect(server.seen.filter((s) => s.path.endsWith('/history'))).toHaveLength(2);
  });

  it('a cancel while waiting for history to finish stops the wait', async () => {
    const pending = JSON.stringify({ code: 0, data: { need_stream: true, historyData: [] } });
    server = await startNavigatorServer({ stopAfter: { frames: 2, how: 'cut' }, history: [{ body: pending }] });
    const controller = new AbortController();
    // The real wait (no injected sleep) is long; the cancel ends it.
    const slow = new NavigatorClient({ key: KEY, baseUrl: server.base, historyPauseMs: 60_000 });
    const asked = slow.ask({ question: 'q?' }, controller.signal);
    while (!server.seen.some((s) => s.path.endsWith('/history'))) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(asked).rejects.toThrow(/the question was cancelled/);
    expect(server.seen.filter((s) => s.path.endsWith('/history'))).toHaveLength(1);
  });

  it('a cancel while the history request is in flight ends with the same cancelled error', async () => {
    server = await startNavigatorServer({ stopAfter: { frames: 2, how: 'cut' }, history: [{ body: '', hold: true }] });
    const controller = new AbortController();
    const asked = client(server.base).ask({ question: 'q?' }, controller.signal);
    while (!server.seen.some((s) => s.path.endsWith('/history'))) await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await expect(asked).rejects.toThrow(/the question was cancelled/);
  });

  it('an error event ends the answer as failed with its message (no history read)', async () => {
    const frames = [...streamFrames().slice(0, 12), frame({ channel: { answerId: 'ans-1' }, system: { event: { type: 'error', message: 'upstream model overloaded' } } })];
    server = await startNavigatorServer({ frames, stopAfter: { frames: frames.length, how: 'stall' } });
    const result = await client(server.base, { stallMs: 5000 }).ask({ question: 'q?' }, never);
    expect(result.via).toBe('stream');
    expect(result.answers[0]).toMatchObject({ status: 'failed', error: 'upstream model overloaded' });
    expect(result.answers[0]!.text.startsWith(EXPECTED_TEXT_START)).toBe(true);
    expect(server.seen.some((s) => s.path.endsWith('/history'))).toBe(false);
  });

  it('a 401 is a named error that says how to get and set a key, and never contains the key', async () => {
    server = await startNavigatorServer({ session: { status: 401, body: { code: 401, message: 'invalid token' } } });
    const error = await client(server.base).ask({ question: 'q?' }, never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NavigatorError);
    expect((error as NavigatorError).code).toBe('unauthorized');
    expect((error as Error).message).toMatch(/HTTP 401: the access key was refused.*OPENAI4S_BOHRIUM_ACCESS_KEY/);
    expect((error as Error).message).not.toContain(KEY);
  });

  it('a 401 on the stream is not retried through history', async () => {
    server = await startNavigatorServer({ streamStatus: 401 });
    const error = await client(server.base).ask({ question: 'q?' }, never).catch((e: unknown) => e);
    expect((error as NavigatorError).code).toBe('unauthorized');
    expect(server.seen.some((s) => s.path.endsWith('/history'))).toBe(false);
  });

  it('refuses a base URL that would send the key in clear, and a missing key', () => {
    expect(() => new NavigatorClient({ key: KEY, baseUrl: 'http://example.org/openapi' })).toThrow(/only https:\/\//);
    expect(() => new NavigatorClient({ key: '  ' })).toThrow(/no access key is set.*OPENAI4S_BOHRIUM_ACCESS_KEY/);
  });

  it('a redirect is not followed (the key stays with the configured host)', async () => {
    const seen: string[] = [];
    const other = http.createServer((req, res) => {
      seen.push(String(req.headers.authorization));
      res.writeHead(200).end('{}');
    });
    await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
    const otherPort = (other.address() as AddressInfo).port;
    const redirecting = http.createServer((_req, res) => res.writeHead(302, { location: `http://127.0.0.1:${otherPort}/steal` }).end());
    await new Promise<void>((r) => redirecting.listen(0, '127.0.0.1', r));
    const port = (redirecting.address() as AddressInfo).port;
    try {
      const error = await client(`http://127.0.0.1:${port}`).ask({ question: 'q?' }, never).catch((e: unknown) => e);
      expect((error as Error).message).toMatch(/redirect \(HTTP 302\), which is not followed/);
      expect(seen).toEqual([]);
    } finally {
      await new Promise<void>((r) => redirecting.close(() => r()));
      await new Promise<void>((r) => other.close(() => r()));
    }
  });
});
