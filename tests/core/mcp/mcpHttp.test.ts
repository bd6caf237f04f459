import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import { ResearchService } from '../../../src-main/cli/mcp/researchService';
import { serveHttp, type HttpServing } from '../../../src-main/cli/mcp/serve';
import { createWorkbenchMcpServer } from '../../../src-main/cli/mcp/workbenchServer';

// Streamable HTTP both ways, on loopback: the client reaching server-everything's HTTP
// transport (url + headers from the config), and the workbench's own HTTP server
// (127.0.0.1, bearer token).
const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');

let dir: string;
let core: Core | null = null;
let child: ChildProcess | null = null;
let serving: HttpServing | null = null;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-http-'));
});
afterEach(async () => {
  await serving?.close();
  serving = null;
  await core?.close();
  core = null;
  child?.kill();
  child = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((r) => server.close(() => r()));
  return port;
}

describe('MCP over Streamable HTTP', () => {
  it('calls a tool of a Streamable HTTP server configured by url', async () => {
    const port = await freePort();
    child = spawn(process.execPath, [EVERYTHING, 'streamableHttp'], { env: { PATH: process.env.PATH, PORT: String(port) }, stdio: ['ignore', 'ignore', 'pipe'] });
    await new Promise<void>((resolve, reject) => {
      child!.stderr!.on('data', (d: Buffer) => d.toString().includes('listening') && resolve());
      child!.once('exit', (code) => reject(new Error(`server-everything exited (${code})`)));
    });
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { type: 'http', url: `http://127.0.0.1:${port}/mcp`, headers: { 'x-test': '1' } } } }));
    core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
    const session = core.ledger.createSession('http');
    await core.mcp.discover(Infinity);
    expect(core.mcp.status().servers[0]).toMatchObject({ name: 'remote', transport: 'http', state: 'ready' });
    const r = await core.host.dispatcher.dispatch('mcp_remote_get_sum', { a: 2, b: 40 }, { origin: 'tool', sessionId: session.id, runId: null, workspace: dir, signal: new AbortController().signal });
    expect(r.status).toBe('ok');
    expect(r.text).toContain('42');
  }, 60_000);

  it('serves the workbench on 127.0.0.1 only to a client with the bearer token and a loopback Host', async () => {
    core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
    const service = new ResearchService(core, { waitMs: 0 });
    serving = await serveHttp(() => createWorkbenchMcpServer(service), { port: 0, token: 'tok-right' });
    expect(serving.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);

    const denied = await fetch(serving.url, { method: 'POST', headers: { authorization: 'Bearer tok-wrong', 'content-type': 'application/json', accept: 'application/json, text/event-stream' }, body: '{}' });
    expect(denied.status).toBe(401);
    const none = await fetch(serving.url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(none.status).toBe(401);
    // A page on another name that resolves to 127.0.0.1 (DNS rebinding) is refused even with the token.
    const rebound = await new Promise<number>((resolve, reject) => {
      const url = new URL(serving!.url);
      const req = http.request({ host: '127.0.0.1', port: url.port, path: url.pathname, method: 'POST', headers: { host: `evil.example:${url.port}`, authorization: 'Bearer tok-right', 'content-type': 'application/json' } }, (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end('{}');
    });
    expect(rebound).toBe(403);

    const client = new Client({ name: 'http-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(serving.url), { requestInit: { headers: { authorization: 'Bearer tok-right' } } }));
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name).sort()).toEqual(['research_assistant_request', 'research_assistant_status']);
    const unknown = await client.callTool({ name: 'research_assistant_status', arguments: { run_id: 'no-such-run' } });
    expect(unknown.isError).toBe(true);
    expect((unknown.content as { text: string }[])[0]!.text).toMatch(/^not_found: /);
    await client.close();
  }, 60_000);
});
