import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../src-main/cli/main';

// A cell's host call that needs approval, under `openai4s kernel exec`: the kernel's
// session ("cli") is not a ledger session, and recording the approval request failed
// with "FOREIGN KEY constraint failed" instead of asking (or denying) properly.

let server: http.Server;
let searchUrl: string;
let searches = 0;
beforeAll(async () => {
  server = http.createServer((_req, res) => {
    searches++;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ results: [{ title: 'Insulin result', url: 'https://example.org/ins', content: 'INS' }] }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  searchUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-approval-'));
  searches = 0;
  return () => fs.rmSync(dir, { recursive: true, force: true });
});

async function kernelExec(code: string, env: NodeJS.ProcessEnv = {}) {
  let out = '';
  let err = '';
  const base: NodeJS.ProcessEnv = { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_SEARXNG_URL: searchUrl, OPENAI4S_KERNEL_PREWARM: '0' };
  delete base.OPENAI4S_UNATTENDED_APPROVAL;
  const exit = await runCli(['kernel', 'exec', '--lang', 'python', code], { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, { ...base, ...env });
  return { exit, out, err };
}

const SEARCH = 'print(host.call("web_search", query="insulin")["text"])';

describe('a host call that needs approval under kernel exec', () => {
  it('is denied headless with a message that says why and how to allow it, never a FOREIGN KEY error', async () => {
    const r = await kernelExec(SEARCH);
    expect(r.exit).toBe(1);
    expect(r.err).not.toMatch(/FOREIGN KEY/i);
    expect(r.err).toContain('no one was there to approve it');
    expect(r.err).toContain('OPENAI4S_UNATTENDED_APPROVAL=allow');
    expect(searches).toBe(0);
    // The decision is in the audit log of calls outside any run.
    const audit = fs.readFileSync(path.join(dir, 'logs', 'host-audit.jsonl'), 'utf8');
    expect(audit).toMatch(/"method":"web_search".*"answer":"deny"/);
  });

  it('runs once allowed by OPENAI4S_UNATTENDED_APPROVAL=allow', async () => {
    const r = await kernelExec(SEARCH, { OPENAI4S_UNATTENDED_APPROVAL: 'allow' });
    expect(r.err).not.toMatch(/FOREIGN KEY/i);
    expect(r.exit).toBe(0);
    expect(r.out).toContain('Insulin result');
    expect(searches).toBe(1);
  });
});
