import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach } from 'vitest';

export interface Hit {
  url: string;
  headers: http.IncomingHttpHeaders;
}

export interface Loopback {
  port: number;
  origin: string;
  hits: Hit[];
  close(): Promise<void>;
}

const servers: Loopback[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

/** A server on 127.0.0.1 that records every request and answers with `handler`. */
export async function loopback(handler: (req: http.IncomingMessage, res: http.ServerResponse) => void): Promise<Loopback> {
  const hits: Hit[] = [];
  const server = http.createServer((req, res) => {
    hits.push({ url: req.url ?? '', headers: req.headers });
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  const s: Loopback = {
    port,
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
  servers.push(s);
  return s;
}

/** Lets exactly these loopback ports through the egress guard (what a test's configuration would allow). */
export const allowPorts = (...ports: number[]) => (address: string, port: number) => address === '127.0.0.1' && ports.includes(port);
