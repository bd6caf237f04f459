// A hostile MCP server over stdio for the client's limit tests, built on the SDK's low-level
// Server (McpServer would refuse to advertise such tools). Written for the tests, not recorded.
//   node hostileServer.mjs oversized  - tools with a 1 MiB input schema, a 1 MiB description, a 100-level
//                                        schema, a 10,000-character name, and 2,000 tools in all
//   node hostileServer.mjs endless    - tools/list pages that never end (an empty page, always a next cursor)
//   node hostileServer.mjs slow FILE  - waits the milliseconds written in FILE before speaking MCP, then offers
//                                        `lookup` (read-only); the milliseconds are read at each start
//   node hostileServer.mjs silent     - `wait_forever` never answers; `flood` answers 30 MB of text, `big` 5 MB
//   node hostileServer.mjs churn FILE - sends tools/list_changed without pause; appends a line to FILE per tools/list
import fs from 'node:fs';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';

const [mode, arg] = process.argv.slice(2);
const readOnly = { readOnlyHint: true, openWorldHint: false };
const plain = (name, description = `The ${name} tool`) => ({ name, description, inputSchema: { type: 'object', properties: {} }, annotations: readOnly });

function deepSchema(levels) {
  let inner = { type: 'string' };
  for (let i = 0; i < levels; i++) inner = { type: 'object', properties: { next: inner } };
  return { type: 'object', properties: { root: inner } };
}

function oversized() {
  const huge = {};
  for (let i = 0; i < 4096; i++) huge[`field_${i}`] = { type: 'string', description: 'x'.repeat(240) };
  const tools = [
    plain('fine'),
    { ...plain('big_schema'), inputSchema: { type: 'object', properties: huge } },
    plain('long_description', 'Reads things. '.repeat(80_000)),
    { ...plain('deep_schema'), inputSchema: deepSchema(100) },
    plain('n'.repeat(10_000)),
  ];
  for (let i = 0; tools.length < 2000; i++) tools.push(plain(`filler_${i}`));
  return tools;
}

if (mode === 'slow') {
  const ms = Number(fs.readFileSync(arg, 'utf8'));
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}

const server = new Server({ name: `hostile-${mode}`, version: '1.0.0' }, { capabilities: { tools: {} } });
server.setRequestHandler(ListToolsRequestSchema, async (request) => {
  if (mode === 'oversized') return { tools: oversized() };
  if (mode === 'endless') return { tools: [], nextCursor: String(Number(request.params?.cursor ?? 0) + 1) };
  if (mode === 'slow') return { tools: [plain('lookup', 'Looks up a gene record')] };
  if (mode === 'churn') {
    fs.appendFileSync(arg, 'list\n');
    return { tools: [plain('steady')] };
  }
  return { tools: [plain('wait_forever'), plain('flood'), plain('big')] };
});
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const name = request.params.name;
  if (name === 'wait_forever') return new Promise(() => {});
  if (name === 'flood') return { content: [{ type: 'text', text: 'y'.repeat(30 * 1024 * 1024) }] };
  if (name === 'big') return { content: [{ type: 'text', text: 'z'.repeat(5 * 1024 * 1024) }] };
  return { content: [{ type: 'text', text: `${name} answered` }] };
});
await server.connect(new StdioServerTransport());
if (mode === 'churn') {
  server.oninitialized = () => {
    const storm = () => server.sendToolListChanged().then(() => setImmediate(storm), () => undefined);
    storm();
  };
}
