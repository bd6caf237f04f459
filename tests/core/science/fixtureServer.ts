import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const FIXTURES = path.join(__dirname, '../../fixtures/science-apis');
export const fixture = (name: string): Buffer => fs.readFileSync(path.join(FIXTURES, name));

export interface Reply {
  status?: number;
  body?: Buffer | string;
  headers?: Record<string, string>;
}

export interface SeenRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/**
 * A loopback HTTP server (127.0.0.1, random port) answering by pathname. A route may be
 * a list of replies served in turn (the last one repeats): e.g. a 429, then the payload.
 */
export async function startFixtureServer(routes: Record<string, Reply | Reply[]>) {
  const seen: SeenRequest[] = [];
  const served = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      seen.push({ method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      const route = routes[url.pathname];
      if (!route) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end(`no fixture for ${url.pathname}`);
        return;
      }
      const list = Array.isArray(route) ? route : [route];
      const n = served.get(url.pathname) ?? 0;
      served.set(url.pathname, n + 1);
      const reply = list[Math.min(n, list.length - 1)]!;
      res.writeHead(reply.status ?? 200, reply.headers ?? {});
      res.end(reply.body ?? '');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    base: `http://127.0.0.1:${port}`,
    seen,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
