import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import path from 'node:path';

export const SNP2_FIXTURES = path.join(__dirname, '../../../fixtures/bohrium-snp2');
export const fixtureText = (name: string) => fs.readFileSync(path.join(SNP2_FIXTURES, name), 'utf8');

/** The SSE frames of the recorded stream fixture (each ends with its blank line). */
export function streamFrames(): string[] {
  return fixtureText('stream.sse')
    .split('\n\n')
    .filter((f) => f.trim())
    .map((f) => `${f}\n\n`);
}

/** The event objects of the stream fixture, in order. */
export function streamEvents(): Record<string, unknown>[] {
  return streamFrames().map((f) => JSON.parse(f.split('\n').find((l) => l.startsWith('data:'))!.slice(5)) as Record<string, unknown>);
}

export const frame = (event: unknown) => `event:data\ndata:${JSON.stringify(event)}\n\n`;

export interface NavigatorServerOptions {
  /** The SSE frames to send on the stream. */
  frames?: string[];
  /** After this many frames: `cut` destroys the connection, `stall` keeps it open and silent. */
  stopAfter?: { frames: number; how: 'cut' | 'stall' };
  session?: { status?: number; body?: unknown };
  streamStatus?: number;
  /** History answers in turn; `hold` keeps that request open and unanswered (a request in flight). */
  history?: { status?: number; body: string; hold?: boolean }[];
}

/**
 * A loopback stand-in for the navigator's three endpoints (127.0.0.1, random port): the
 * session is created, the stream sends the frames one write each (so the client meets
 * real chunk boundaries), and history answers its bodies in turn.
 */
export async function startNavigatorServer(opts: NavigatorServerOptions) {
  const seen: { method: string; path: string; headers: http.IncomingHttpHeaders; body: string }[] = [];
  let historyServed = 0;
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push({ method: req.method ?? 'GET', path: url.pathname, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      if (req.method === 'POST' && url.pathname.endsWith('/api/v4/ai_search/sessions')) {
        res.writeHead(opts.session?.status ?? 200, { 'content-type': 'application/json' });
        res.end(JSON.stringify(opts.session?.body ?? { code: 0, data: { sessionId: 'sn-7f3c2a' } }));
        return;
      }
      if (url.pathname.endsWith('/stream')) {
        if (opts.streamStatus && opts.streamStatus !== 200) {
          res.writeHead(opts.streamStatus, { 'content-type': 'application/json' }).end('{"code":401,"message":"unauthorized"}');
          return;
        }
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
        const frames = opts.frames ?? streamFrames();
        const limit = opts.stopAfter?.frames ?? frames.length;
        let i = 0;
        const next = () => {
          if (i < limit && i < frames.length) {
            res.write(frames[i++]);
            setImmediate(next);
            return;
          }
          if (opts.stopAfter?.how === 'cut') res.socket?.destroy();
          else if (opts.stopAfter?.how === 'stall') return; // silent, open
          else res.end();
        };
        next();
        return;
      }
      if (url.pathname.endsWith('/history')) {
        const list = opts.history ?? [{ body: fixtureText('history.json') }];
        const reply = list[Math.min(historyServed++, list.length - 1)]!;
        if (reply.hold) return;
        res.writeHead(reply.status ?? 200, { 'content-type': 'application/json' }).end(reply.body);
        return;
      }
      res.writeHead(404).end('no route');
    });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}/openapi`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}
