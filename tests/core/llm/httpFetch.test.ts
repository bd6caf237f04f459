import http from 'node:http';
import type { AddressInfo } from 'node:net';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { httpFetch } from '../../../src-main/core/llm/httpFetch';
import { coalescedUntilDone, lastLineEnd } from '../../../src-main/core/llm/sseDone';

let server: http.Server | null = null;
// A proxy in the environment sends requests to fetch instead (httpFetch.ts): these tests are about httpFetch itself.
const PROXY_VARS = ['HTTPS_PROXY', 'https_proxy', 'HTTP_PROXY', 'http_proxy'];
const savedProxy = new Map(PROXY_VARS.map((k) => [k, process.env[k]]));
beforeAll(() => PROXY_VARS.forEach((k) => delete process.env[k]));
afterAll(() => savedProxy.forEach((v, k) => (v === undefined ? delete process.env[k] : (process.env[k] = v))));
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve) ?? resolve(null));
  server = null;
});

async function serve(handler: http.RequestListener): Promise<string> {
  server = http.createServer(handler);
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

async function readAll(body: ReadableStream<Uint8Array>): Promise<{ text: string; reads: number }> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let text = '';
  let reads = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return { text: text + decoder.decode(), reads };
    reads++;
    text += decoder.decode(value, { stream: true });
  }
}

const events = (n: number) => Array.from({ length: n }, (_, i) => `data: {"i":${i},"s":"é"}\n\n`);

describe('httpFetch (node:http under the provider packages)', () => {
  it('sends method, headers and body, and returns status, headers and the body byte for byte, many HTTP chunks in few reads', async () => {
    let seen: { method?: string; auth?: string; body: string } = { body: '' };
    const frames = events(2000);
    const url = await serve((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen = { method: req.method, auth: req.headers.authorization, body };
        res.writeHead(200, { 'content-type': 'text/event-stream', 'x-request-id': 'r1' });
        for (const f of frames) res.write(f); // one HTTP chunk per event
        res.end();
      });
    });
    const response = await httpFetch(`${url}/v1/chat`, { method: 'POST', headers: { authorization: 'Bearer k' }, body: '{"q":"é"}' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-request-id')).toBe('r1');
    const { text, reads } = await readAll(response.body!);
    expect(seen).toEqual({ method: 'POST', auth: 'Bearer k', body: '{"q":"é"}' });
    expect(text).toBe(frames.join(''));
    expect(reads).toBeLessThan(frames.length / 10);
  });

  it('decodes a gzip body', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'content-encoding': 'gzip' });
      res.end(zlib.gzipSync(events(10).join('')));
    });
    const response = await httpFetch(url, {});
    expect((await readAll(response.body!)).text).toBe(events(10).join(''));
  });

  it('a connection cut mid-body errors the body as fetch does (fetch failed), after the bytes that came first', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {"first":true}\n\n', () => setTimeout(() => res.socket?.destroy(), 20));
    });
    const response = await httpFetch(url, {});
    const reader = response.body!.getReader();
    const first = await reader.read();
    expect(new TextDecoder().decode(first.value)).toBe('data: {"first":true}\n\n');
    await expect(reader.read()).rejects.toThrow('fetch failed');
  });

  it('an abort rejects with the signal reason (AbortError), before and during the body', async () => {
    const url = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.write('data: {}\n\n');
    });
    const early = new AbortController();
    early.abort();
    await expect(httpFetch(url, { signal: early.signal })).rejects.toMatchObject({ name: 'AbortError' });
    const late = new AbortController();
    const response = await httpFetch(url, { signal: late.signal });
    const reader = response.body!.getReader();
    await reader.read();
    late.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('a refused connection fails as fetch does: TypeError "fetch failed" with the socket error as its cause', async () => {
    const url = await serve(() => {});
    server!.close();
    await new Promise((r) => setTimeout(r, 20));
    server = null;
    const error = await httpFetch(url, {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(TypeError);
    expect((error as TypeError).message).toBe('fetch failed');
    expect(((error as TypeError).cause as { code?: string }).code).toBe('ECONNREFUSED');
  });
});

describe('coalescedUntilDone', () => {
  it('passes an error of the body on after the text that came before it', async () => {
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(new TextEncoder().encode('data: {"a":1}\n\n'));
        setTimeout(() => c.error(new Error('cut')), 10);
      },
    });
    const reader = coalescedUntilDone(source).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"a":1}\n\n');
    await expect(reader.read()).rejects.toThrow('cut');
  });

  it('keeps an unterminated last line and a CR split from its LF', async () => {
    const input = 'data: {"a":1}\r\n\r\ndata: tail';
    const bytes = new TextEncoder().encode(input);
    const source = new ReadableStream<Uint8Array>({
      start(c) {
        for (let i = 0; i < bytes.length; i++) c.enqueue(bytes.subarray(i, i + 1));
        c.close();
      },
    });
    expect(await new Response(coalescedUntilDone(source)).text()).toBe(input);
  });
});

describe('lastLineEnd (where the complete lines of a read end)', () => {
  it('finds the last LF, CR or CRLF before the limit, and -1 when there is none', () => {
    expect(lastLineEnd('a\nb\nc', 5)).toBe(3);
    expect(lastLineEnd('a\r\nb\r\nc', 7)).toBe(5);
    expect(lastLineEnd('a\rb\rc', 5)).toBe(3); // CR-only line ends
    expect(lastLineEnd('a\nb\rc', 5)).toBe(3); // a CR after the last LF ends the line
    expect(lastLineEnd('a\rb\nc', 5)).toBe(3);
    expect(lastLineEnd('abc', 3)).toBe(-1);
    expect(lastLineEnd('\nabc', 0)).toBe(-1); // nothing before index 0
  });

  it('ignores line ends at or after the limit', () => {
    expect(lastLineEnd('ab\ncd\n', 5)).toBe(2);
    expect(lastLineEnd('ab\ncd\r', 5)).toBe(2);
    expect(lastLineEnd('ab\ncd\r', 6)).toBe(5);
    expect(lastLineEnd('ab\rcd\r\n', 5)).toBe(2);
    expect(lastLineEnd('ab\rcd\r\n', 6)).toBe(5);
  });
});
