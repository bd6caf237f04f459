/**
 * A scripted model: an HTTP server on 127.0.0.1 (random port) that answers each
 * POST with the next step of its script, speaking OpenAI Chat Completions SSE
 * (or replaying raw recorded bytes of any wire), and records every request.
 * Point a provider at it with `OPENAI4S_<PROVIDER>_BASE_URL=<server.baseUrl>`.
 */
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { defaultErrorBody, renderReply, type Frame, type ScriptStep, type StaticStep } from './script';
import { errorMessage } from '../../shared/errorMessage';

export interface RecordedRequest {
  method: string;
  /** Path and query, e.g. `/v1/chat/completions`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The JSON body (or the raw text when it is not JSON). */
  body: unknown;
  receivedAt: number;
  /** Set when the client closed the connection before the response was complete. */
  clientClosedAt: number | null;
  /** Set when the response was completely written. */
  completedAt: number | null;
  /** The script dropped the connection on purpose (`cut`, `cutAfterBytes`). */
  cutByServer: boolean;
}

export interface ScriptedModel {
  /** `http://127.0.0.1:PORT/v1` (the version path, as provider base URLs include it). */
  readonly baseUrl: string;
  readonly origin: string;
  /** The model calls (every request but the model-list probe below), in arrival order. */
  readonly requests: RecordedRequest[];
  /**
   * How many times `GET <base>/models` was asked: the app's readiness check of a local
   * endpoint. It is answered with a model list, like a real OpenAI-compatible server, and
   * is not a model call, so it plays no step and is not in `requests`.
   */
  modelListProbes(): number;
  /** Appends steps to the script. */
  push(...steps: ScriptStep[]): void;
  /** Steps not yet played. */
  remaining(): number;
  /** Resolves once `n` requests have ended (completed or closed by the client). */
  waitForRequestsEnded(n: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export interface ScriptedModelOptions {
  /** Path prefix of `baseUrl` (default `/v1`). */
  basePath?: string;
  /** Replay the script from the start when it runs out (demos); default: answer 500 `script_exhausted`. */
  loop?: boolean;
}

const wait = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

function readBody(req: http.IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

/**
 * Drops the connection mid-response, the way a proxy or a crashed upstream does,
 * after what was written has left the process (destroy discards unflushed writes).
 */
async function cut(res: http.ServerResponse, record: RecordedRequest): Promise<void> {
  record.cutByServer = true;
  const socket = res.socket;
  // 'drain' fires only after a write that returned false, so poll the buffer instead.
  for (let i = 0; i < 200 && socket && socket.writableLength > 0; i++) await wait(5);
  await wait(10);
  res.destroy();
}

function promptChars(body: unknown): number {
  const messages = (body as { messages?: unknown } | null)?.messages;
  return messages ? JSON.stringify(messages).length : 0;
}

/** Back-to-back frames per socket write, in characters of the encoded text (about bytes; see writeFrames). */
const WRITE_CHARS = 64 * 1024;

/** Node's own flag: the response's body goes out in HTTP/1.1 chunked encoding. */
type ChunkedResponse = http.ServerResponse & { chunkedEncoding?: boolean };

export async function startScriptedModel(steps: ScriptStep[] = [], options: ScriptedModelOptions = {}): Promise<ScriptedModel> {
  const script = [...steps];
  const requests: RecordedRequest[] = [];
  const sockets = new Set<Socket>();
  const endListeners = new Set<() => void>();
  const notifyEnded = () => endListeners.forEach((l) => l());

  /**
   * Each frame is its own HTTP chunk, as a real server sends it. Frames with no delay between
   * them are chunk-encoded here and go to the socket about WRITE_CHARS at a time: a flood of them
   * costs the server a few string appends per frame instead of a `res.write` each (which cost
   * ~9 us a frame: on the streaming bench's 2 cores the scripted server then took a third of
   * a core from the app it serves, where a real model server costs the user's machine
   * nothing). The client reads the same bytes and chunks either way; `res.end()` writes the
   * last chunk as usual.
   */
  async function writeFrames(res: http.ServerResponse, frames: Frame[], isOpen: () => boolean): Promise<void> {
    const socket = res.socket;
    if (!socket || (res as ChunkedResponse).chunkedEncoding !== true) {
      // Not chunked (an HTTP/1.0 client): Node frames nothing, each frame is written as it is.
      for (const frame of frames) {
        if (!isOpen()) return;
        if (typeof frame === 'number') await wait(frame);
        else res.write(frame);
      }
      return;
    }
    let pending = '';
    const send = () => {
      if (pending) socket.write(pending);
      pending = '';
    };
    for (const frame of frames) {
      if (!isOpen()) return;
      if (typeof frame === 'number') {
        send();
        await wait(frame);
        continue;
      }
      const bytes = Buffer.byteLength(frame);
      // A zero-length chunk would end the body; res.write('') writes nothing either.
      if (bytes > 0) pending += `${bytes.toString(16)}\r\n${frame}\r\n`;
      if (pending.length >= WRITE_CHARS) send();
    }
    send();
  }

  async function play(scripted: ScriptStep | undefined, body: unknown, res: http.ServerResponse, record: RecordedRequest): Promise<void> {
    const isOpen = () => record.clientClosedAt === null;
    const step: StaticStep | undefined = typeof scripted === 'function' ? scripted(body) : scripted;
    if (!step) {
      res.writeHead(500, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: { message: 'Scripted model: the script has no step left for this request.', type: 'server_error', code: 'script_exhausted' } }));
      return;
    }
    if ('hang' in step) {
      res.writeHead(200, { 'content-type': 'text/event-stream' });
      res.flushHeaders();
      await new Promise<void>((resolve) => res.on('close', () => resolve()));
      return;
    }
    if ('error' in step) {
      res.writeHead(step.error.status, { 'content-type': 'application/json', ...step.error.headers });
      res.end(JSON.stringify(step.error.body ?? defaultErrorBody(step.error.status)));
      return;
    }
    if ('raw' in step) {
      res.writeHead(step.status ?? 200, { 'content-type': step.contentType ?? 'text/event-stream', 'cache-control': 'no-cache' });
      const bytes = Buffer.from(step.raw, 'utf8');
      const limit = step.cutAfterBytes ?? bytes.length;
      const size = step.chunkBytes ?? bytes.length;
      for (let at = 0; at < limit && isOpen(); at += size) {
        res.write(bytes.subarray(at, Math.min(at + size, limit)));
        if (step.chunkDelayMs) await wait(step.chunkDelayMs);
      }
      if (step.cutAfterBytes !== undefined) await cut(res, record);
      else res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', ...step.headers });
    res.flushHeaders();
    await writeFrames(res, renderReply(step, promptChars(body)), isOpen);
    if (step.cut) await cut(res, record);
    else res.end();
  }

  let probes = 0;
  const server = http.createServer((req, res) => {
    if (req.method === 'GET' && req.url === `${options.basePath ?? '/v1'}/models`) {
      probes++;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: 'scripted-model', object: 'model', owned_by: 'openai4s-tests' }] }));
      return;
    }
    void (async () => {
      const text = await readBody(req);
      let body: unknown = text;
      try {
        body = text ? JSON.parse(text) : null;
      } catch {
        // keep the raw text
      }
      const record: RecordedRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        headers: req.headers,
        body,
        receivedAt: Date.now(),
        clientClosedAt: null,
        completedAt: null,
        cutByServer: false,
      };
      requests.push(record);
      res.on('close', () => {
        if (!res.writableFinished && !record.cutByServer && record.clientClosedAt === null) record.clientClosedAt = Date.now();
        notifyEnded();
      });
      res.on('finish', () => {
        record.completedAt = Date.now();
      });
      const step = req.method === 'POST' ? script.shift() : undefined;
      if (step && options.loop) script.push(step);
      await play(step, body, res, record);
    })().catch((error: unknown) => {
      if (!res.headersSent) res.writeHead(500);
      res.end(errorMessage(error));
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const origin = `http://127.0.0.1:${port}`;
  const basePath = options.basePath ?? '/v1';

  const ended = () => requests.filter((r) => r.clientClosedAt !== null || r.completedAt !== null || r.cutByServer).length;
  return {
    baseUrl: `${origin}${basePath}`,
    origin,
    requests,
    modelListProbes: () => probes,
    push: (...more) => script.push(...more),
    remaining: () => script.length,
    waitForRequestsEnded: (n, timeoutMs = 5000) =>
      new Promise<void>((resolve, reject) => {
        if (ended() >= n) return resolve();
        const timer = setTimeout(() => {
          endListeners.delete(check);
          reject(new Error(`Scripted model: ${ended()} of ${n} requests ended within ${timeoutMs} ms.`));
        }, timeoutMs);
        const check = () => {
          if (ended() >= n) {
            clearTimeout(timer);
            endListeners.delete(check);
            resolve();
          }
        };
        endListeners.add(check);
      }),
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
