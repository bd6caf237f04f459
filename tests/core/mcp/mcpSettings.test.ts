import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createRouter } from '../../../src-main/core/api/router';
import { routes } from '../../../src-preload/contract/routes';
import type { McpView } from '../../../src-preload/contract/mcp';

// Settings → MCP servers over the handler map: a block pasted from another client's
// config lands in the data root's mcp.json (never in the ledger: entries may hold keys).
const EVERYTHING = path.resolve('node_modules/@modelcontextprotocol/server-everything/dist/index.js');
const SECRET = 'ghp_pasted_token_never_shown_1234';

let dir: string;
let core: Core;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-settings-'));
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
});
afterEach(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Through the router, as the renderer calls it: the route's schema checks the input first. */
async function call(route: string, input: unknown = {}): Promise<McpView> {
  const router = createRouter(routes, createHandlers(core));
  const answer = (await router.handle(route, input, { origin: 'app://openai4s', isMainFrame: true })) as { ok: boolean; data?: McpView; error?: { code: string; message: string } };
  if (!answer.ok) throw new Error(`${answer.error!.code}: ${answer.error!.message}`);
  return answer.data!;
}

describe('Settings → MCP servers', () => {
  it('adds a pasted mcpServers block to mcp.json (user-only), shows no env value, connects, sets overrides, removes', async () => {
    const pasted = JSON.stringify({ mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'], env: { GITHUB_TOKEN: SECRET } } } });
    const added = await call('mcp.add', { json: pasted });
    expect(added.servers).toMatchObject([{ name: 'everything', transport: 'stdio', state: 'stopped', tools: null }]);
    expect(JSON.stringify(added)).not.toContain(SECRET);
    const file = path.join(dir, 'mcp.json');
    expect(added.configFile).toBe(file);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).mcpServers.everything.env.GITHUB_TOKEN).toBe(SECRET);
    expect(JSON.stringify(core.ledger.settings.all())).not.toContain(SECRET);

    const connected = await call('mcp.connect', { name: 'everything' });
    const tools = connected.servers[0]!.tools!;
    expect(connected.servers[0]!.state).toBe('ready');
    expect(tools.find((t) => t.name === 'echo')).toMatchObject({ registeredAs: 'mcp_everything_echo', policy: 'allow', basis: 'read-only', override: null });

    const denied = await call('mcp.policy.set', { server: 'everything', tool: null, policy: 'deny' });
    expect(denied.servers[0]!.override).toBe('deny');
    expect(denied.servers[0]!.tools!.find((t) => t.name === 'echo')!.policy).toBe('deny');
    // A tool's own override beats the server's.
    const toolAllowed = await call('mcp.policy.set', { server: 'everything', tool: 'echo', policy: 'allow' });
    expect(toolAllowed.servers[0]!.tools!.find((t) => t.name === 'echo')!.override).toBe('allow');
    expect(toolAllowed.servers[0]!.tools!.find((t) => t.name === 'get-sum')!.policy).toBe('deny');
    const session = core.ledger.createSession('s');
    const refused = await core.host.dispatcher.dispatch('mcp_everything_get_sum', { a: 1, b: 2 }, { origin: 'tool', sessionId: session.id, runId: null, workspace: dir, signal: new AbortController().signal });
    expect(refused.status).toBe('denied');
    const cleared = await call('mcp.policy.set', { server: 'everything', tool: null, policy: null });
    expect(cleared.servers[0]!.tools!.find((t) => t.name === 'get-sum')!.policy).toBe('allow');

    // The HTTP token is made once and kept.
    expect(cleared.httpToken).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect((await call('mcp.list', {})).httpToken).toBe(cleared.httpToken);

    const removed = await call('mcp.remove', { name: 'everything' });
    expect(removed.servers).toEqual([]);
    expect(core.mcp.size()).toBe(0);
  }, 60_000);

  it('refuses a block with a bad entry and changes nothing', async () => {
    await call('mcp.add', { json: JSON.stringify({ mcpServers: { good: { command: 'true' } } }) });
    const before = fs.readFileSync(path.join(dir, 'mcp.json'), 'utf8');
    await expect(call('mcp.add', { json: JSON.stringify({ mcpServers: { other: { command: 'x' }, broken: { args: ['no command'] } } }) })).rejects.toThrow(/MCP server "broken": give "command"/);
    await expect(call('mcp.add', { json: '{"mcpServers": ' })).rejects.toThrow(/not JSON/);
    await expect(call('mcp.add', { json: JSON.stringify({ mcpServers: { old: { type: 'sse', url: 'http://127.0.0.1:1/sse' } } }) })).rejects.toThrow(/legacy SSE transport is not supported/);
    expect(fs.readFileSync(path.join(dir, 'mcp.json'), 'utf8')).toBe(before);
    await expect(call('mcp.remove', { name: 'nope' })).rejects.toThrow(/^not_found: No MCP server named "nope"/);
    await expect(call('mcp.policy.set', { server: '../etc', tool: null, policy: 'allow' })).rejects.toThrow(/^invalid_input: .*a server name is/);
  });
});
