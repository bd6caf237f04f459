import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/** One recorded answer: which request it answers, and the file with the recorded bytes. */
export interface RecordedRoute {
  method: 'GET' | 'POST';
  path: string;
  file: string;
  contentType: string;
}

export interface FixtureServer {
  origin: string;
  /** Requests answered, in order (method and path), for tests and the demo's log. */
  readonly hits: string[];
  close(): Promise<void>;
}

/**
 * Serves recorded science payloads on 127.0.0.1 (a random port) at the paths the real
 * services use, so the connectors run unchanged against them with only their base URL
 * overridden (OPENAI4S_<DB>_BASE_URL). Anything else is a 404 that names what exists.
 */
export async function startFixtureServer(dir: string, routes: readonly RecordedRoute[]): Promise<FixtureServer> {
  const bodies = new Map(routes.map((r) => [`${r.method} ${r.path}`, { bytes: fs.readFileSync(path.join(dir, r.file)), type: r.contentType }]));
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    const key = `${req.method} ${(req.url ?? '/').split('?')[0]}`;
    req.resume();
    req.on('end', () => {
      hits.push(key);
      const body = bodies.get(key);
      if (!body) {
        res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
        res.end(`No recorded answer for ${key}. Recorded: ${[...bodies.keys()].join(', ')}`);
        return;
      }
      res.writeHead(200, { 'content-type': body.type, 'content-length': body.bytes.length });
      res.end(body.bytes);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
