import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import { MCP_TOOL_CACHE_FILE } from '../../../src-main/core/mcp/toolCache';
import { parseServersBlock } from '../../../src-main/core/mcp/config';
import { startHostileHttpServer } from '../../support/mcp/hostileHttpServer';
import { canonicalJson, sha256 } from '../../../src-main/core/mcp/resultText';

// A hostile server (tests/support/mcp/hostileServer.mjs, on the SDK's low-level Server):
// oversized tools, a tool list that pages forever, a server slow to start, a tool that
// never answers and one that answers 30 MB.
const HOSTILE = path.resolve('tests/support/mcp/hostileServer.mjs');
const SPAWN = 120_000;

let dir: string;
let core: Core | null = null;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-hostile-'));
});

afterEach(async () => {
  await core?.close();
  core = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

function servers(map: Record<string, string[]>): void {
  const mcpServers = Object.fromEntries(Object.entries(map).map(([name, args]) => [name, { command: process.execPath, args: [HOSTILE, ...args] }]));
  fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers }));
}

function open(waitMs: number): Core {
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNATTENDED_APPROVAL: '', OPENAI4S_MCP_DISCOVER_WAIT_MS: String(waitMs) } });
  return core;
}

function call(c: Core, sessionId: string, method: string, args: unknown, runId: string | null = null, signal = new AbortController().signal) {
  return c.host.dispatcher.dispatch(method, args, { origin: 'tool', sessionId, runId, workspace: dir, signal });
}

describe('a hostile MCP server is held to limits', () => {
  it('leaves out a tool with a 1 MiB schema, a 100-level schema or a 10,000-character name, shortens a 1 MiB description, keeps 500 of 2,000 tools, and names each', async () => {
    servers({ hostile: ['oversized'] });
    const c = open(120_000);
    const session = c.ledger.createSession('hostile');
    const found = await call(c, session.id, 'find_tools', { query: 'fine' }, 'run-1');
    expect(found.text).toContain('mcp_hostile_fine');
    expect(found.text).toContain('MCP server "hostile": 4 of its tools are left out (Settings → MCP servers says why).');
    const view = c.mcp.status().servers[0]!;
    expect(view.skipped).toEqual([
      expect.stringMatching(/^MCP server "hostile" tool "big_schema" is left out: its input schema is [\d,]+ bytes, over the 16,384 bytes offered to a model; only its author can fix it\.$/),
      'MCP server "hostile" tool "deep_schema" is left out: its input schema nests more than 24 levels deep; only its author can fix it.',
      expect.stringMatching(/^MCP server "hostile" tool "n{59}…" is left out: its name is 10,000 characters, over the 128 MCP allows/),
      'MCP server "hostile" lists more than 500 tools; the app keeps the first 500 and leaves out the rest (from "filler_498").',
    ]);
    expect(view.tools).toHaveLength(500);
    expect(view.tools!.find((t) => t.name === 'long_description')!.description.length).toBe(2_000);
    // The model's tool list for this run stays small: no 1 MiB schema reaches a request.
    expect(JSON.stringify(c.host.llmTools('run-1')).length).toBeLessThan(200_000);
    const ok = await call(c, session.id, 'mcp_hostile_fine', {});
    expect(ok.status).toBe('ok');
    expect(ok.text).toContain('fine answered');
  }, SPAWN);

  it('stops reading a tool list that pages forever and says so', async () => {
    servers({ endless: ['endless'] });
    const c = open(120_000);
    const session = c.ledger.createSession('hostile');
    await call(c, session.id, 'find_tools', { query: 'x' }, 'run-1');
    expect(c.mcp.status().servers[0]).toMatchObject({
      state: 'ready',
      tools: [],
      skipped: ['MCP server "endless" pages its tool list past 20 pages; the app stops there and leaves out the rest.'],
    });
  }, SPAWN);

  it('a server that announces list changes without pause is listed again at most about once a second', async () => {
    const lists = path.join(dir, 'lists.txt');
    fs.writeFileSync(lists, '');
    servers({ churn: ['churn', lists] });
    const c = open(120_000);
    await c.mcp.discover(Infinity);
    await new Promise((r) => setTimeout(r, 3_000));
    const listed = fs.readFileSync(lists, 'utf8').split('\n').filter(Boolean).length;
    // Thousands of notifications arrived; each one listing again would be thousands of listings.
    expect(listed).toBeGreaterThanOrEqual(1);
    expect(listed).toBeLessThan(20);
    expect(c.mcp.status().servers[0]).toMatchObject({ state: 'ready', tools: [expect.objectContaining({ name: 'steady' })] });
  }, SPAWN);

  it('a call that never answers ends when the run is cancelled, and the server keeps serving', async () => {
    servers({ silent: ['silent'] });
    const c = open(120_000);
    const session = c.ledger.createSession('hostile');
    await c.mcp.discover(Infinity);
    const stop = new AbortController();
    const pending = call(c, session.id, 'mcp_silent_wait_forever', {}, null, stop.signal);
    setTimeout(() => stop.abort(), 500);
    const r = await pending;
    expect(r.status).not.toBe('ok');
    expect(c.mcp.status().servers[0]!.state).toBe('ready');
  }, SPAWN);

  it('a 5 MB answer is read and cut for the model and the cell; a 30 MB one fails naming the cap, and the server restarts', async () => {
    servers({ silent: ['silent'] });
    const c = open(120_000);
    const session = c.ledger.createSession('hostile');
    await c.mcp.discover(Infinity);
    const big = await call(c, session.id, 'mcp_silent_big', {});
    expect(big.status).toBe('ok');
    expect(big.text.length).toBeLessThan(40_000);
    expect(big.output).toMatchObject({ text_truncated: true });
    expect((big.output as { text: string }).text).toMatch(/\[cut: the result is 5,242,880 characters; ask the tool for less\]$/);
    const flood = await call(c, session.id, 'mcp_silent_flood', {});
    expect(flood.status).toBe('error');
    expect(flood.text).toMatch(/MCP server "silent" stopped during the call to flood; it is restarted on the next call\. it sent a message over the 10 MiB the app reads, so the connection was closed \(ask the tool for less\)/);
    const again = await call(c, session.id, 'mcp_silent_big', {});
    expect(again.status).toBe('ok');
  }, SPAWN);
});

describe('a hostile Streamable HTTP server is held to the same message cap', () => {
  it('a 30 MB answer, as JSON or as one event, fails the call naming the cap; small answers still work', async () => {
    const remote = await startHostileHttpServer();
    try {
      fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { json: { type: 'http', url: remote.url('/json') }, sse: { type: 'http', url: remote.url('/sse') } } }));
      const c = open(120_000);
      const session = c.ledger.createSession('hostile-http');
      await c.mcp.discover(Infinity);
      for (const name of ['json', 'sse']) {
        const small = await call(c, session.id, `mcp_${name}_small`, {});
        expect(small.status).toBe('ok');
        const flood = await call(c, session.id, `mcp_${name}_flood`, {});
        expect(flood.status).toBe('error');
        // Either wording names the server and the cap: the answer refused as it arrives, or the connection closed for it.
        expect(flood.text).toMatch(new RegExp(`MCP server "${name}" (answered the call to flood with more than 10,485,760 bytes|stopped during the call to flood; it is restarted on the next call\\. it sent a message over the 10 MiB the app reads)`));
        expect((await call(c, session.id, `mcp_${name}_small`, {})).status).toBe('ok');
      }
    } finally {
      await core?.close();
      core = null;
      await remote.close();
    }
  }, SPAWN);
});

describe('find_tools does not wait for every MCP server to start', () => {
  it('answers with the tools remembered from the last start and a note while the server is slow to come up', async () => {
    const delay = path.join(dir, 'delay-ms');
    fs.writeFileSync(delay, '0');
    servers({ slow: ['slow', delay] });
    // First start: the server is quick; its tool list is remembered in the data root.
    let c = open(120_000);
    let session = c.ledger.createSession('first');
    const first = await call(c, session.id, 'find_tools', { query: 'gene record' }, 'run-1');
    expect(first.text).toContain('mcp_slow_lookup');
    expect(fs.existsSync(path.join(dir, MCP_TOOL_CACHE_FILE))).toBe(true);
    await c.close();

    // Next app start: the server now takes a minute to start; the search does not wait for it.
    fs.writeFileSync(delay, '60000');
    c = open(1_000);
    session = c.ledger.createSession('second');
    const second = await call(c, session.id, 'find_tools', { query: 'gene record' }, 'run-2');
    expect(second.text).toContain('mcp_slow_lookup');
    expect(second.text).toContain('MCP server "slow" is still starting; its tools from its last start are listed, and calling one waits for it.');
    expect(c.mcp.status().servers[0]).toMatchObject({ state: 'starting', tools: [expect.objectContaining({ name: 'lookup' })] });
    // Closing the app ends the start in progress instead of waiting out the start timeout.
    await c.close();
    core = null;
  }, SPAWN);

  it('a first start that is slow: the search answers with a note and the tools join when the server is up', async () => {
    const delay = path.join(dir, 'delay-ms');
    fs.writeFileSync(delay, '4000');
    servers({ slow: ['slow', delay] });
    const c = open(500);
    const session = c.ledger.createSession('slow');
    const early = await call(c, session.id, 'find_tools', { query: 'gene record' }, 'run-1');
    expect(early.text).toContain('MCP server "slow" is still starting; search again in a moment for its tools.');
    expect(early.text).not.toContain('mcp_slow_lookup');
    await expect.poll(() => c.mcp.status().servers[0]!.state, { timeout: 60_000 }).toBe('ready');
    const later = await call(c, session.id, 'find_tools', { query: 'gene record' }, 'run-1');
    expect(later.text).toContain('mcp_slow_lookup');
  }, SPAWN);

  it('the first run of the app starts the servers in the background, before any search', async () => {
    fs.writeFileSync(path.join(dir, 'delay-ms'), '0');
    servers({ slow: ['slow', path.join(dir, 'delay-ms')] });
    const c = open(0);
    expect(c.mcp.status().servers[0]!.state).toBe('stopped');
    // What a run's first chunk does on the core's bus (the runner publishes every chunk there).
    c.events.emit('session.stream', { sessionId: 's', runId: 'r', seq: 1, chunk: { type: 'start' } } as never);
    await expect.poll(() => c.mcp.status().servers[0]!.state, { timeout: 60_000 }).toBe('ready');
  }, SPAWN);

  it('a remembered tool whose annotations changed is not called under the old policy', async () => {
    // The remembered list says the tool writes (asks); the live server marks it read-only. The definition changed
    // between the listing the catalogue offered and the call, so that call is refused once, whatever the direction.
    servers({ slow: ['slow', path.join(dir, 'delay-ms')] });
    fs.writeFileSync(path.join(dir, 'delay-ms'), '0');
    // The remembered list's key: the hash of the server's entry as the app reads it.
    const entry = parseServersBlock(JSON.parse(fs.readFileSync(path.join(dir, 'mcp.json'), 'utf8'))).servers[0]!;
    const key = sha256(canonicalJson(entry));
    const remembered = { name: 'lookup', description: 'Looks up a gene record', inputSchema: { type: 'object', properties: {} }, annotations: { readOnlyHint: false } };
    fs.writeFileSync(path.join(dir, MCP_TOOL_CACHE_FILE), JSON.stringify({ slow: { key, listedAt: '2020-01-01T00:00:00Z', tools: [remembered], skipped: [] } }));
    const c = open(0);
    const session = c.ledger.createSession('changed');
    await call(c, session.id, 'find_tools', { query: 'gene record' }, 'run-1');
    await c.mcp.discover(Infinity);
    const r = await call(c, session.id, 'mcp_slow_lookup', {});
    expect(r.status).toBe('error');
    expect(r.text).toMatch(/MCP server "slow" changed the annotations of "lookup" since it was listed, so nothing was called; its policy is now "read-only/);
    // Called again, it goes ahead under the live policy (read-only here).
    const again = await call(c, session.id, 'mcp_slow_lookup', {});
    expect(again.status).toBe('ok');
  }, SPAWN);
});
