import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';

/**
 * The scripted model chunk-encodes back-to-back frames itself and writes them in large
 * socket writes (server.ts, writeFrames). These tests read the raw HTTP response off a
 * socket and check the framing a strict client relies on: one chunk per SSE frame, each
 * chunk's size in bytes (not characters), the last chunk once, at the end.
 */

let server: ScriptedModel | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** POSTs a chat request over a plain socket and returns the whole raw response. */
async function rawResponse(baseUrl: string): Promise<Buffer> {
  const url = new URL(`${baseUrl}/chat/completions`);
  const body = JSON.stringify({ model: 'scripted-model', stream: true, messages: [{ role: 'user', content: 'hi' }] });
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(url.port), url.hostname, () => {
      socket.write(`POST ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    });
    const parts: Buffer[] = [];
    socket.on('data', (b: Buffer) => parts.push(b));
    socket.on('end', () => resolve(Buffer.concat(parts)));
    socket.on('error', reject);
  });
}

/** Splits a chunked body into its chunks, checking each size line against the bytes that follow. */
function dechunk(body: Buffer): { chunks: string[]; ended: boolean; rest: number } {
  const chunks: string[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return { chunks, ended: false, rest: body.length - at };
    const size = parseInt(body.subarray(at, eol).toString('latin1'), 16);
    if (!Number.isFinite(size)) throw new Error(`bad chunk size line at byte ${at}`);
    if (size === 0) return { chunks, ended: body.subarray(eol, eol + 4).toString('latin1') === '\r\n\r\n', rest: body.length - (eol + 4) };
    const data = body.subarray(eol + 2, eol + 2 + size);
    if (body.subarray(eol + 2 + size, eol + 4 + size).toString('latin1') !== '\r\n') throw new Error(`chunk at byte ${at} is not ${size} bytes long`);
    chunks.push(data.toString('utf8'));
    at = eol + 4 + size;
  }
}

/** The reply's text, joined from the content deltas of the SSE frames. */
function contentOf(chunks: string[]): string {
  return chunks
    .filter((c) => c !== 'data: [DONE]\n\n')
    .map((c) => JSON.parse(c.slice(6)) as { choices: { delta?: { content?: string } }[] })
    .map((c) => c.choices[0]?.delta?.content ?? '')
    .join('');
}

describe('the scripted model on the wire', () => {
  it('sends a flood of deltas, multi-byte text included, one HTTP chunk per SSE frame, and ends the body once', async () => {
    const text = '胰岛素 insulin β-cell — '.repeat(3000);
    server = await startScriptedModel([{ reply: [{ text }], chunkSize: 7 }]);
    const raw = await rawResponse(server.baseUrl);
    const head = raw.indexOf('\r\n\r\n');
    expect(raw.subarray(0, head).toString('latin1')).toMatch(/transfer-encoding: chunked/i);
    const { chunks, ended, rest } = dechunk(raw.subarray(head + 4));
    expect(ended).toBe(true);
    expect(rest).toBe(0);
    expect(chunks.every((c) => c.startsWith('data: ') && c.endsWith('\n\n'))).toBe(true);
    expect(contentOf(chunks)).toBe(text);
    expect(chunks.at(-1)).toBe('data: [DONE]\n\n');
  });

  it('frames with a delay between them arrive one chunk each, in order', async () => {
    server = await startScriptedModel([{ reply: [{ text: 'abcdefghij' }], chunkSize: 2, chunkDelayMs: 5 }]);
    const raw = await rawResponse(server.baseUrl);
    const { chunks, ended } = dechunk(raw.subarray(raw.indexOf('\r\n\r\n') + 4));
    expect(ended).toBe(true);
    expect(contentOf(chunks)).toBe('abcdefghij');
  });
});
