/**
 * The fetch a provider uses by default: `node:http(s)` under a `fetch` signature, with a
 * body that hands the SDK everything that has arrived since its last read as one chunk.
 *
 * Why not the built-in fetch (undici): a provider sends one HTTP chunk per event. undici
 * parses a whole socket read at once, pushes each event into a body stream of 16 KiB,
 * pauses when that is full and, on resume, concatenates *everything* its socket has
 * buffered into one new buffer (Node 20's undici 6, `resume` -> `socket.read()`); the
 * socket keeps reading meanwhile, so on a fast stream each resume copied megabytes: the
 * streaming bench spent 37% of the main process in that copy (6 GB for one 7 MB answer),
 * and every event also cost a round of web-stream promises. Node's own HTTP client parses
 * in C++ straight off the socket and pauses the socket itself, so neither happens.
 *
 * What it supports is what the provider packages send: a string or byte body, headers and
 * an abort signal. Anything else (a `Request` object, a stream body, a redirect, a proxy in
 * the environment) goes to the built-in fetch, so behaviour stays fetch's; so does every request when something
 * replaced `globalThis.fetch` (a proxy-aware fetch, a test double).
 */
import http from 'node:http';
import https from 'node:https';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import type { FetchFunction } from './types';

export const NATIVE_FETCH = globalThis.fetch;
const agents = { http: new http.Agent({ keepAlive: true }), https: new https.Agent({ keepAlive: true }) };
/** Bytes held for the consumer before the socket is paused. */
const HIGH_WATER = 64 * 1024;
/** At most this many bytes go to the SDK's parser in one chunk (it parses a chunk in one synchronous call). */
const PIECE = 4 * 1024;

/** A proxy set in the environment is left to fetch (newer Node versions honour it with NODE_USE_ENV_PROXY). */
const proxied = (): boolean => Boolean(process.env.HTTPS_PROXY || process.env.https_proxy || process.env.HTTP_PROXY || process.env.http_proxy);

function abortReason(signal: AbortSignal): unknown {
  return signal.reason ?? new DOMException('This operation was aborted', 'AbortError');
}

/** Fetch's own failure shape (`TypeError: fetch failed`, the cause attached) so errors.ts classifies it the same. */
function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/**
 * The decoded body as a web stream, in pieces of up to PIECE bytes. The source is read in
 * paused mode: its chunks (one per HTTP chunk, one per event) collect in its buffer and one
 * `read()` takes them all, so no event is emitted per chunk. Above HIGH_WATER nothing is
 * read, the source's buffer fills and Node stops reading the socket (backpressure).
 */
function coalescedBody(source: Readable, res: http.IncomingMessage, signal: AbortSignal | undefined): ReadableStream<Uint8Array> {
  let queue: Buffer[] = [];
  let queued = 0;
  let ended = false;
  let failed: { error: unknown } | null = null;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  const drain = () => {
    for (let chunk: Buffer | null; queued < HIGH_WATER && (chunk = source.read() as Buffer | null) !== null; ) {
      queue.push(chunk);
      queued += chunk.length;
    }
    notify();
  };
  source.on('readable', drain);
  source.on('end', () => {
    ended = true;
    notify();
  });
  const fail = (error: unknown) => {
    failed ??= { error: signal?.aborted ? abortReason(signal) : fetchFailed(error) };
    ended = true;
    notify();
  };
  source.on('error', fail);
  if (res !== source) res.on('error', fail);
  // A connection closed before the body ended is a failure, as fetch reports it.
  res.on('close', () => {
    if (!res.complete) fail(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' }));
  });
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        while (queued === 0 && !ended) await new Promise<void>((resolve) => (wake = resolve));
        if (queued > 0) {
          let piece: Buffer;
          const first = queue[0]!;
          if (first.length > PIECE) {
            // Bytes, not characters: the SDK's decoder is a streaming one.
            piece = first.subarray(0, PIECE);
            queue[0] = first.subarray(PIECE);
          } else {
            let n = 0;
            let bytes = 0;
            while (n < queue.length && bytes + queue[n]!.length <= PIECE) bytes += queue[n++]!.length;
            piece = n === 1 ? first : Buffer.concat(queue.slice(0, n), bytes);
            queue = n === queue.length ? [] : queue.slice(n);
          }
          queued -= piece.length;
          if (queued < HIGH_WATER && !ended) drain();
          controller.enqueue(new Uint8Array(piece.buffer, piece.byteOffset, piece.byteLength));
          return;
        }
        if (failed) controller.error(failed.error);
        else controller.close();
      },
      cancel() {
        ended = true;
        source.destroy();
        res.destroy();
      },
    },
    { highWaterMark: 0 },
  );
}

function decoded(res: http.IncomingMessage): Readable {
  const encoding = (res.headers['content-encoding'] ?? '').trim().toLowerCase();
  if (encoding === 'gzip' || encoding === 'x-gzip') return res.pipe(zlib.createGunzip());
  if (encoding === 'deflate') return res.pipe(zlib.createInflate());
  if (encoding === 'br') return res.pipe(zlib.createBrotliDecompress());
  return res;
}

/** A fetch over `node:http(s)` for the requests the provider packages make (see the file comment). */
export const httpFetch: FetchFunction = (input, init) => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : null;
  const body = init?.body as unknown;
  const simpleBody = body === undefined || body === null || typeof body === 'string' || body instanceof Uint8Array;
  if (globalThis.fetch !== NATIVE_FETCH || url === null || !simpleBody || !/^https?:/i.test(url) || proxied()) return globalThis.fetch(input, init);
  const signal = init?.signal ?? undefined;
  if (signal?.aborted) return Promise.reject(abortReason(signal));
  const headers: Record<string, string> = {};
  new Headers(init?.headers).forEach((value, name) => (headers[name] = value));
  if (body !== undefined && body !== null) headers['content-length'] = String(typeof body === 'string' ? Buffer.byteLength(body) : (body as Uint8Array).byteLength);
  headers['accept-encoding'] ??= 'gzip, deflate, br';
  const secure = url.toLowerCase().startsWith('https:');
  return new Promise<Response>((resolve, reject) => {
    const req = (secure ? https : http).request(url, { method: init?.method ?? 'GET', headers, agent: secure ? agents.https : agents.http });
    const onAbort = () => req.destroy(abortReason(signal!) as Error);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('error', (error) => {
      signal?.removeEventListener('abort', onAbort);
      reject(signal?.aborted ? abortReason(signal) : fetchFailed(error));
    });
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location && init?.redirect !== 'manual') {
        // fetch's redirect rules (method changes, header stripping) are its own: let it redo the request.
        res.resume();
        signal?.removeEventListener('abort', onAbort);
        resolve(globalThis.fetch(input, init));
        return;
      }
      res.on('close', () => signal?.removeEventListener('abort', onAbort));
      const responseHeaders = new Headers();
      for (let i = 0; i + 1 < res.rawHeaders.length; i += 2) responseHeaders.append(res.rawHeaders[i]!, res.rawHeaders[i + 1]!);
      const noBody = status === 204 || status === 304 || (init?.method ?? 'GET').toUpperCase() === 'HEAD';
      if (noBody) res.resume();
      resolve(new Response(noBody ? null : coalescedBody(decoded(res), res, signal), { status, statusText: res.statusMessage ?? '', headers: responseHeaders }));
    });
    req.end(body === undefined || body === null ? undefined : (body as string | Uint8Array));
  });
};
