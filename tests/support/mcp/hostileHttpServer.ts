import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A hostile Streamable HTTP MCP server, hand-written (JSON-RPC over POST, no session): it
 * initializes and lists two read-only tools; `small` answers a line, `flood` answers 30 MB,
 * as one JSON body at /json and as one server-sent event at /sse.
 */
export async function startHostileHttpServer(): Promise<{ url: (path: '/json' | '/sse') => string; close(): Promise<void> }> {
  const readOnly = { readOnlyHint: true, openWorldHint: false };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method: string; params?: { name?: string; protocolVersion?: string } };
      if (message.id === undefined) return void res.writeHead(202).end();
      let result: unknown;
      if (message.method === 'initialize') result = { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'hostile-http', version: '1.0.0' } };
      else if (message.method === 'tools/list') result = { tools: ['small', 'flood'].map((name) => ({ name, description: `The ${name} tool`, inputSchema: { type: 'object', properties: {} }, annotations: readOnly })) };
      else if (message.method === 'tools/call') result = { content: [{ type: 'text', text: message.params?.name === 'flood' ? 'f'.repeat(30 * 1024 * 1024) : 'small answered' }] };
      else result = {};
      const body = JSON.stringify({ jsonrpc: '2.0', id: message.id, result });
      if (req.url === '/sse') {
        res.writeHead(200, { 'content-type': 'text/event-stream' });
        res.end(`event: message\ndata: ${body}\n\n`);
      } else {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(body);
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
