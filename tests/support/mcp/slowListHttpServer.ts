import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A Streamable HTTP MCP server on 127.0.0.1, hand-written (JSON-RPC over POST, no session),
 * whose tools/list hangs while `holding` is on: it answers the handshake at once and holds
 * each listing unanswered, as a server stuck behind a slow backend does. Turned off, it
 * lists one read-only tool, `echo`.
 */
export async function startSlowListHttpServer(): Promise<{ url: string; lists(): number; answerLists(): void; close(): Promise<void> }> {
  let holding = true;
  let lists = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST') return void res.writeHead(405).end();
      const message = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { id?: number; method: string; params?: { protocolVersion?: string } };
      if (message.id === undefined) return void res.writeHead(202).end();
      let result: unknown = {};
      if (message.method === 'initialize') result = { protocolVersion: message.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name: 'slow-list', version: '1.0.0' } };
      if (message.method === 'tools/list') {
        lists++;
        // Held: the response stays open until the server closes.
        if (holding) return;
        result = { tools: [{ name: 'echo', description: 'Says hello', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: true, openWorldHint: false } }] };
      }
      if (message.method === 'tools/call') result = { content: [{ type: 'text', text: 'hello' }] };
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    lists: () => lists,
    answerLists: () => void (holding = false),
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
