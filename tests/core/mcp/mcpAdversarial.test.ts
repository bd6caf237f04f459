import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import { boundTools } from '../../../src-main/core/mcp/toolLimits';
import { startStatefulHttpServer } from '../../support/mcp/statefulHttpServer';
import { scrubSecrets } from '../../../src-main/core/security/secrets';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

// Adversarial MCP servers (tests/support/mcp/adversarialServer.mjs over stdio, a stateful
// Streamable HTTP server on 127.0.0.1) against the client: what a hostile or careless server
// can send, and what the app must still do.
const ADVERSARIAL = path.resolve('tests/support/mcp/adversarialServer.mjs');
const SPAWN = 120_000;

let dir: string;
let core: Core | null = null;
const closers: (() => Promise<void>)[] = [];

function call(c: Core, sessionId: string, method: string, args: unknown) {
  return c.host.dispatcher.dispatch(method, args, { origin: 'tool', sessionId, runId: null, workspace: dir, signal: new AbortController().signal });
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-mcp-adv-'));
});

afterEach(async () => {
  await core?.close();
  core = null;
  for (const close of closers.splice(0)) await close().catch(() => undefined);
  fs.rmSync(dir, { recursive: true, force: true });
});

function open(): Core {
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNATTENDED_APPROVAL: '', OPENAI4S_MCP_DISCOVER_WAIT_MS: '120000' } });
  return core;
}

function stdioServers(modes: Record<string, string>): void {
  const mcpServers = Object.fromEntries(Object.entries(modes).map(([name, mode]) => [name, { command: process.execPath, args: [ADVERSARIAL, mode] }]));
  fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers }));
}


describe('tool names and texts that could pass for something else', () => {
  const tool = (name: string, description = 'Reads notes') => ({ name, description, inputSchema: { type: 'object' as const, properties: {} } });

  it('leaves out a tool whose name holds a terminal escape, a newline, a tab or a right-to-left override, quoting it escaped', () => {
    const { tools, skipped } = boundTools('srv', [tool('plain'), tool('evil\u001b]0;pwned\u0007x'), tool('two\nlines'), tool('rtl\u202Eexe.txt'), tool('tab\tbed')]);
    expect(tools.map((t) => t.name)).toEqual(['plain']);
    expect(skipped).toEqual([
      'MCP server "srv" tool "evil\\u001b]0;pwned\\u0007x" is left out: its name has control, invisible or space characters, which MCP tool names may not hold; only its author can fix it.',
      'MCP server "srv" tool "two\\u000alines" is left out: its name has control, invisible or space characters, which MCP tool names may not hold; only its author can fix it.',
      'MCP server "srv" tool "rtl\\u202eexe.txt" is left out: its name has control, invisible or space characters, which MCP tool names may not hold; only its author can fix it.',
      'MCP server "srv" tool "tab\\u0009bed" is left out: its name has control, invisible or space characters, which MCP tool names may not hold; only its author can fix it.',
    ]);
  });

  it('drops control characters and direction overrides from a description and title, keeping line breaks and other scripts', () => {
    const { tools } = boundTools('srv', [{ ...tool('notes', 'Reads\u001b[2J notes\u202E gnp.exe\nLine two: 读取笔记 ✓'), title: 'Notes\u0007' }]);
    expect(tools[0]).toMatchObject({ description: 'Reads[2J notes gnp.exe\nLine two: 读取笔记 ✓', title: 'Notes' });
  });

  it('a live server offering such names: only its plain tool is registered, and Settings says why the others are missing', async () => {
    stdioServers({ names: 'names' });
    const c = open();
    await c.mcp.discover(Infinity);
    const view = c.mcp.status().servers[0]!;
    expect(view.state).toBe('ready');
    expect(view.tools!.map((t) => t.registeredAs)).toEqual(['mcp_names_plain']);
    expect(view.skipped).toHaveLength(4);
    expect(view.skipped.join(' ')).not.toMatch(/\p{Cc}|\u202e/u);
  }, SPAWN);
});

describe('a Streamable HTTP server that forgets the session or restarts', () => {
  async function remote(c: () => Core) {
    const first = await startStatefulHttpServer(1);
    closers.push(first.close);
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { type: 'http', url: first.url } } }));
    const core = c();
    const session = core.ledger.createSession('restart');
    await core.mcp.discover(Infinity);
    expect((await call(core, session.id, 'mcp_remote_where', {})).text).toContain('generation 1');
    return { first, core, session };
  }

  it('a call to a session the server forgot (404) is made again on a new session, once, and succeeds', async () => {
    const { first, core: c, session } = await remote(open);
    await first.forget();
    const r = await call(c, session.id, 'mcp_remote_where', {});
    expect(r.status).toBe('ok');
    expect(r.text).toContain('generation 1');
    expect(first.sessions()).toBe(1);
    expect(c.mcp.status().servers[0]!.state).toBe('ready');
  }, SPAWN);

  it('after the server restarts on its port, the next call opens a new session on it and succeeds', async () => {
    const { first, core: c, session } = await remote(open);
    await first.close();
    // A restart takes a moment, in which the app's side sees the old connections close.
    await new Promise((resolve) => setTimeout(resolve, 300));
    const second = await startStatefulHttpServer(2, first.port);
    closers.push(second.close);
    const r = await call(c, session.id, 'mcp_remote_where', {});
    expect(r.status).toBe('ok');
    expect(r.text).toContain('generation 2');
  }, SPAWN);

  it('a call while the server is down says it could not be reached and that the next call connects again; the next call after it is back succeeds', async () => {
    const { first, core: c, session } = await remote(open);
    await first.close();
    await new Promise((resolve) => setTimeout(resolve, 300));
    const down = await call(c, session.id, 'mcp_remote_where', {});
    expect(down.status).toBe('error');
    expect(down.text).toMatch(/MCP server "remote" (could not be reached during the call to where \(.+\), so whether it ran there is unknown; the app connects again on the next call|\(Settings → MCP servers, or mcp\.json in the data root\) could not start: nothing answers at http:\/\/127\.0\.0\.1:\d+\/mcp \(ECONNREFUSED\): check the url and that the server is running)/);
    expect(down.text).not.toContain('refused the call');
    const second = await startStatefulHttpServer(2, first.port);
    closers.push(second.close);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const back = await call(c, session.id, 'mcp_remote_where', {});
    expect(back.status).toBe('ok');
    expect(back.text).toContain('generation 2');
  }, SPAWN);
});

describe('a tool whose definition is not valid MCP', () => {
  it('is left out with the reason, and the server’s other tools are still listed and callable', async () => {
    stdioServers({ schema: 'schema' });
    const c = open();
    const session = c.ledger.createSession('schema');
    await c.mcp.discover(Infinity);
    const view = c.mcp.status().servers[0]!;
    expect(view.state).toBe('ready');
    expect(view.tools!.map((t) => t.name)).toEqual(['plain']);
    expect(view.skipped).toEqual([expect.stringMatching(/^MCP server "schema" tool "bad_schema" is left out: its definition is not valid MCP \(inputSchema\.properties\.m: .+\); only its author can fix it\.$/)]);
    const r = await call(c, session.id, 'mcp_schema_plain', {});
    expect(r.status).toBe('ok');
    expect(r.text).toContain('plain answered');
  }, SPAWN);
});

describe('an entry that cannot start says what is wrong and what to change, in one line', () => {
  async function plainHttp(status: number): Promise<string> {
    const server = http.createServer((_req, res) => res.writeHead(status).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`;
  }

  it('a missing command, a closed port, a 401 and a 404 each name the fix', async () => {
    const closed = await plainHttp(200);
    await closers.pop()!();
    const mcpServers = {
      missing: { command: 'no-such-mcp-command-xyz', args: ['--flag'] },
      closed: { url: closed },
      locked: { url: await plainHttp(401) },
      nowhere: { url: await plainHttp(404) },
    };
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers }));
    const c = open();
    const session = c.ledger.createSession('start');
    await c.mcp.discover(Infinity);
    const errors = Object.fromEntries(c.mcp.status().servers.map((s) => [s.name, s.error]));
    expect(errors).toEqual({
      missing: 'could not start: the command "no-such-mcp-command-xyz" was not found: install it, or give its full path as "command"',
      closed: expect.stringMatching(/^could not start: nothing answers at http:\/\/127\.0\.0\.1:\d+\/mcp \(ECONNREFUSED\): check the url and that the server is running$/),
      locked: expect.stringMatching(/^could not start: http:\/\/127\.0\.0\.1:\d+\/mcp refused the app \(HTTP 401\): check the credentials in the entry’s "headers"/),
      nowhere: expect.stringMatching(/^could not start: http:\/\/127\.0\.0\.1:\d+\/mcp has no MCP endpoint \(HTTP 404\): check the url’s path \(often \/mcp\)$/),
    });
    for (const e of Object.values(errors)) expect(e).not.toContain('\n');
    // What a call (and so the model and the ledger) reads says the same, and where the entry is.
    await c.mcp.connect('missing');
    const r = await call(c, session.id, 'mcp_call', { server: 'missing', tool: 'x' });
    expect(r.text).toContain('MCP server "missing" (Settings → MCP servers, or mcp.json in the data root) could not start: the command "no-such-mcp-command-xyz" was not found');
  }, SPAWN);
});

describe('keys in an entry’s url or command line stay out of messages, the ledger and logs', () => {
  it('a url with a user and password is refused with where to put them', () => {
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers: { remote: { url: 'http://user:hunter2pass99@127.0.0.1:1/mcp' } } }));
    const c = open();
    expect(c.mcp.status().servers).toEqual([]);
    expect(c.mcp.status().errors).toEqual([expect.stringMatching(/MCP server "remote": url: url must not hold a user or password; give them in "headers", e\.g\. "Authorization": "Basic <base64 of user:password>"$/)]);
  });

  it('a url query key, a --token argument and a KEY=VALUE argument are scrubbed, and the model’s message names only the command or the url’s path', async () => {
    const mcpServers = {
      remote: { url: 'http://127.0.0.1:1/mcp?api_key=QUERYSECRET123&region=eu' },
      local: { command: 'no-such-mcp-command-xyz', args: ['--token', 'ARGSECRET4567', 'ZOTERO_KEY=KVSECRET890', '--verbose'] },
    };
    fs.writeFileSync(path.join(dir, 'mcp.json'), JSON.stringify({ mcpServers }));
    const c = open();
    const session = c.ledger.createSession('keys');
    await c.mcp.discover(Infinity);
    const texts: string[] = [];
    for (const server of ['remote', 'local']) {
      await c.mcp.connect(server);
      texts.push((await call(c, session.id, 'mcp_call', { server, tool: 'x' })).text);
    }
    for (const secret of ['QUERYSECRET123', 'ARGSECRET4567', 'KVSECRET890']) {
      expect(texts.join('\n')).not.toContain(secret);
      expect(scrubSecrets(`seen: ${secret}`)).toBe('seen: [redacted]');
    }
    expect(texts[0]).toContain('http://127.0.0.1:1/mcp');
    expect(scrubSecrets('region eu')).toBe('region eu');
  }, SPAWN);
});

describe('results and requests a client does not expect', () => {
  it('structured content nested 100,000 levels deep fails the call naming the limit, and the server keeps serving', async () => {
    stdioServers({ deep: 'deep' });
    const c = open();
    const session = c.ledger.createSession('deep');
    await c.mcp.discover(Infinity);
    const r = await call(c, session.id, 'mcp_deep_deep', {});
    expect(r.status).toBe('error');
    expect(r.text).toContain('MCP server "deep" answered the call to deep with content nested more than 256 levels deep, which the app does not read; ask the tool for less.');
    expect(c.mcp.status().servers[0]!.state).toBe('ready');
  }, SPAWN);

  it('a server that asks for sampling, roots and elicitation mid-call is told the method is not offered, and its call completes', async () => {
    stdioServers({ ask: 'ask' });
    const c = open();
    const session = c.ledger.createSession('ask');
    await c.mcp.discover(Infinity);
    const r = await call(c, session.id, 'mcp_ask_ask', {});
    expect(r.status).toBe('ok');
    // -32601: method not found. Nothing was sampled from the model, no folder listed, the user asked nothing.
    expect(r.text).toContain('sampling/createMessage: -32601\nroots/list: -32601\nelicitation/create: -32601');
  }, SPAWN);
});
