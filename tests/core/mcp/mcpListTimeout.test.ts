import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import { parseServerEntry } from '../../../src-main/core/mcp/config';
import { listTimeoutProblem } from '../../../src-main/core/mcp/startProblem';
import { startSlowListHttpServer } from '../../support/mcp/slowListHttpServer';

// A server whose tools/list did not answer in time was shown "ready" with no tools and no
// reason. It is now "failed" with a reason that says the listing timed out and what to do,
// until a later listing (Connect, or a call of its tools) succeeds.
let dir: string;
let core: Core | null = null;
const closers: (() => Promise<void>)[] = [];

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-list-'));
});
afterEach(async () => {
  await core?.close();
  core = null;
  for (const close of closers.splice(0)) await close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(): Core {
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNATTENDED_APPROVAL: '', OPENAI4S_MCP_DISCOVER_WAIT_MS: '120000' } });
  return core;
}

const REASON = 'it did not list its tools within 2 s, so it offers none: check that the server works (its own log may say why), or give it longer with "timeout" in its entry (milliseconds; now 2000), then Connect again';

describe('a server whose tool listing times out', () => {
  it('is shown failed with why and what to do, and the next listing that answers clears it', async () => {
    const slow = await startSlowListHttpServer();
    closers.push(slow.close);
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { slow: { url: slow.url, timeout: 2000 } } }));
    const c = open();
    const notes = await c.mcp.discover(Infinity);
    expect(notes).toEqual(['MCP server "slow" did not list its tools in time, so its tools are missing; the user can see why in Settings → MCP servers.']);
    expect(c.mcp.status().servers[0]).toMatchObject({ state: 'failed', error: REASON, tools: null });

    // What a call of its tools (so the model) reads says the same.
    const session = c.ledger.createSession('slow');
    const held = await c.host.dispatcher.dispatch('mcp_call', { server: 'slow', tool: 'echo' }, { origin: 'tool', sessionId: session.id, runId: null, workspace: dir, signal: new AbortController().signal });
    expect(held.status).toBe('error');
    expect(held.text).toContain(`MCP server "slow" (Settings → MCP servers, or mcp.json in the data root): ${REASON}.`);

    slow.answerLists();
    const view = await c.mcp.connect('slow');
    expect(view.servers[0]).toMatchObject({ state: 'ready', error: null });
    expect(view.servers[0]!.tools!.map((t) => t.registeredAs)).toEqual(['mcp_slow_echo']);
    expect(await c.mcp.discover(Infinity)).toEqual([]);
    expect(slow.lists()).toBe(3);
  }, 60_000);

  it('names the default when the entry sets no timeout', () => {
    expect(listTimeoutProblem(undefined)).toBe('it did not list its tools within 30 s, so it offers none: check that the server works (its own log may say why), or give it longer with "timeout" in its entry (milliseconds; the default is 30000), then Connect again');
  });

  it('an entry’s timeout is milliseconds from 1000 to 600000', () => {
    expect(parseServerEntry('a', { command: 'x', timeout: 5000 })).toMatchObject({ timeout: 5000 });
    expect(parseServerEntry('b', { url: 'http://127.0.0.1:1/mcp', timeout: 60000 })).toMatchObject({ timeout: 60000 });
    expect(() => parseServerEntry('c', { command: 'x', timeout: 30 })).toThrow('MCP server "c": timeout: give the milliseconds to wait for the server, from 1000 to 600000');
    expect(() => parseServerEntry('d', { command: 'x', timeout: '30s' })).toThrow('MCP server "d": timeout: give the milliseconds to wait for the server, from 1000 to 600000');
  });
});
