import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { errorMessage } from '../../core/shared/errorMessage';

/** Serves over stdin/stdout until the client closes the stream (or `stop` resolves). */
export async function serveStdio(server: McpServer, stop: Promise<void>): Promise<void> {
  const transport = new StdioServerTransport();
  const closed = new Promise<void>((resolve) => {
    server.server.onclose = resolve;
    // The client went away (Claude Desktop quit): stdin ends.
    process.stdin.once('end', resolve);
  });
  await server.connect(transport);
  await Promise.race([closed, stop]);
  await server.close().catch(() => undefined);
}

function sameToken(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function refuse(res: http.ServerResponse, status: number, message: string): void {
  res.writeHead(status, { 'content-type': 'application/json', ...(status === 401 ? { 'www-authenticate': 'Bearer' } : {}) });
  res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
}

export interface HttpServing {
  url: string;
  close(): Promise<void>;
}

/**
 * Streamable HTTP bound to 127.0.0.1 only, every request carrying `Authorization: Bearer
 * <token>`, the Host header checked (a web page cannot reach it through DNS rebinding).
 * Stateless: each POST gets its own server and transport, so nothing per client is held.
 */
export async function serveHttp(makeServer: () => McpServer, options: { port: number; token: string }): Promise<HttpServing> {
  let port = options.port;
  const httpServer = http.createServer((req, res) => {
    const host = (req.headers.host ?? '').toLowerCase();
    if (host !== `127.0.0.1:${port}` && host !== `localhost:${port}`) return refuse(res, 403, `Host ${host || '(none)'} is not this loopback server.`);
    const auth = req.headers.authorization ?? '';
    if (!auth.startsWith('Bearer ') || !sameToken(auth.slice(7).trim(), options.token)) return refuse(res, 401, 'Missing or wrong bearer token: send Authorization: Bearer <token>, with the token Settings → MCP servers shows (or the --token / OPENAI4S_MCP_TOKEN the server was started with).');
    if (req.method !== 'POST') return refuse(res, 405, 'This server is stateless: send JSON-RPC requests with POST.');
    const server = makeServer();
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close().catch(() => undefined);
      void server.close().catch(() => undefined);
    });
    server
      .connect(transport)
      .then(() => transport.handleRequest(req, res))
      .catch((error: unknown) => {
        if (!res.headersSent) refuse(res, 500, errorMessage(error));
      });
  });
  await new Promise<void>((resolve, reject) => {
    httpServer.once('error', reject);
    httpServer.listen(options.port, '127.0.0.1', () => resolve());
  });
  port = (httpServer.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: () => new Promise<void>((resolve) => httpServer.close(() => resolve())),
  };
}
