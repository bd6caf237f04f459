import http from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';

/**
 * A stateful Streamable HTTP MCP server on 127.0.0.1 (the SDK's own transport, with session
 * ids, as most remote servers run): one read-only tool `where` that answers with the
 * server's generation. Started again on the same port (or told to forget), it knows no
 * session, as a restarted remote server does, and answers an old session id with 404.
 */
export async function startStatefulHttpServer(generation: number, port = 0): Promise<{ url: string; port: number; sessions(): number; forget(): Promise<void>; close(): Promise<void> }> {
  const sessions = new Map<string, StreamableHTTPServerTransport>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const body = chunks.length ? (JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown) : undefined;
        const id = req.headers['mcp-session-id'];
        let transport = typeof id === 'string' ? sessions.get(id) : undefined;
        if (!transport) {
          if (typeof id === 'string') {
            res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null }));
            return;
          }
          const t = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID(), onsessioninitialized: (sid) => void sessions.set(sid, t) });
          const mcp = new McpServer({ name: 'stateful', version: '1.0.0' });
          mcp.registerTool('where', { description: 'Says which start of the server answered', annotations: { readOnlyHint: true, openWorldHint: false } }, async () => ({
            content: [{ type: 'text', text: `generation ${generation}` }],
          }));
          await mcp.connect(t);
          transport = t;
        }
        await transport.handleRequest(req, res, body);
      })().catch(() => res.headersSent || res.writeHead(500).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${bound}/mcp`,
    port: bound,
    sessions: () => sessions.size,
    forget: async () => {
      const open = [...sessions.values()];
      sessions.clear();
      await Promise.all(open.map((t) => t.close().catch(() => undefined)));
    },
    close: async () => {
      await Promise.all([...sessions.values()].map((t) => t.close().catch(() => undefined)));
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
