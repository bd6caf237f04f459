import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCore, type Core } from '../../../src-main/core/core';
import { startNavigatorServer } from '../science/navigator/navigatorServer';

// Issue 21: a Python cell asks the navigator through host.navigator(...); the key stays in the host.
const KEY = 'bohr-cell-key-0123456789';
let server: Awaited<ReturnType<typeof startNavigatorServer>>;
let core: Core;
beforeAll(async () => {
  server = await startNavigatorServer({});
  core = createCore({
    env: {
      PATH: process.env.PATH,
      LANG: 'C.UTF-8',
      OPENAI4S_DATA_DIR: fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-navcell-')),
      OPENAI4S_KERNEL_PREWARM: '0',
      OPENAI4S_SANDBOX: 'enforce',
      OPENAI4S_BOHRIUM_ACCESS_KEY: KEY,
      OPENAI4S_BOHRIUM_BASE_URL: server.base,
    },
  });
});
afterAll(async () => {
  await core.close();
  await server.close();
});

describe('host.navigator in a cell', () => {
  it('returns the merged answer with reference evidence ids of the session, and the kernel never sees the key', async () => {
    const session = core.ledger.createSession('navigator from a cell');
    const code = [
      'import json, os',
      'r = host.navigator(question="CRISPR-Cas9 in gene therapy since 2021?")',
      'out = r["output"] if isinstance(r, dict) and "output" in r else r',
      'a = out["answers"][0]',
      `leak = any("${KEY}" in v for v in os.environ.values())`,
      'print(json.dumps({"status": a["status"], "refs": [x["evidenceId"] for x in a["references"]], "dois": [x["doi"] for x in a["references"]], "leak": leak}))',
      'r2 = host.science.navigator(question="Same question, by the other name?")',
      'print(json.dumps({"second": (r2["output"] if "output" in r2 else r2)["answers"][0]["status"]}))',
    ].join('\n');
    const cell = await core.kernels.execute(session.id, 'python', code);
    expect(cell.stderr + (cell.error?.traceback ?? '')).toBe('');
    const lines = cell.stdout.trim().split('\n');
    const got = JSON.parse(lines.at(-2)!) as { status: string; refs: string[]; dois: string[]; leak: boolean };
    expect(got.status).toBe('complete');
    expect(got.dois).toEqual(['10.1056/NEJMoa2031054', '10.1056/NEJMoa2107454']);
    expect(core.provenance.evidence.missing(session.id, got.refs)).toEqual([]);
    expect(got.leak).toBe(false);
    expect(JSON.parse(lines.at(-1)!)).toEqual({ second: 'complete' });
    expect(cell.stdout).not.toContain(KEY);
  }, 60_000);
});
