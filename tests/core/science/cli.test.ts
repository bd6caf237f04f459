import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { createCore } from '../../../src-main/core/core';
import { fixture, startFixtureServer } from './fixtureServer';

let server: Awaited<ReturnType<typeof startFixtureServer>>;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-cli-'));
const outside = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-cli-out-'));
beforeAll(async () => {
  server = await startFixtureServer({
    '/uniprotkb/search': { body: fixture('uniprot-rest-search-braf-reviewed-minimized.json') },
    '/download/4INS.pdb': { body: fixture('pdb-4INS.pdb') },
  });
});
afterAll(() => server.close());

async function cli(args: string[], extraEnv: Record<string, string> = {}) {
  const out: string[] = [];
  const err: string[] = [];
  const env = { PATH: process.env.PATH, OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNIPROT_BASE_URL: server.base, ...extraEnv };
  const code = await runCli(args, { out: (t) => out.push(t), err: (t) => err.push(t) }, env);
  return { code, out: out.join('\n'), err: err.join('\n') };
}

function newSession(title: string): string {
  const core = createCore({ env: { PATH: process.env.PATH, OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0' } });
  try {
    return core.ledger.createSession(title).id;
  } finally {
    void core.close();
  }
}

const pdb = (extra: string[]) => cli(['science', 'pdb', '4INS', '--op', 'download', '--filter', 'format=pdb', ...extra], { OPENAI4S_PDB_FILES_BASE_URL: server.base });
const downloads = () => server.seen.filter((r) => r.path.startsWith('/download/')).length;

describe('openai4s science', () => {
  it('--json prints normalized records with retrieved_at and the sha256 of the served bytes', async () => {
    const r = await cli(['science', 'uniprot', 'BRAF human', '--json', '--limit', '3']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const json = JSON.parse(r.out);
    expect(json.records[0].id).toBe('P15056');
    expect(json.provenance[0].sha256).toBe(createHash('sha256').update(fixture('uniprot-rest-search-braf-reviewed-minimized.json')).digest('hex'));
    expect(Date.parse(json.provenance[0].retrieved_at)).not.toBeNaN();
    expect(server.seen.at(-1)!.query.get('query')).toBe('BRAF human');
  });

  it('prints a readable table and names a misconfigured endpoint variable', async () => {
    const r = await cli(['science', 'uniprot', 'BRAF human', '--session', newSession('cli-s1')]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/P15056 {2}Serine\/threonine-protein kinase B-raf/);
    expect(r.out).toMatch(/\[ev_[a-z2-7]{16}\]/);
    expect(r.out).toMatch(/sha256=[0-9a-f]{64}/);
    const bad = await cli(['science', 'uniprot', 'BRAF'], { OPENAI4S_UNIPROT_BASE_URL: 'http://example.org' });
    expect(bad.code).toBe(2);
    expect(bad.err).toMatch(/OPENAI4S_UNIPROT_BASE_URL/);
  });

  it('openai4s artifacts lists nothing for a new session, and refuses a bad id or an unknown session', async () => {
    const core = createCore({ env: { PATH: process.env.PATH, OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0' } });
    const session = core.ledger.createSession('empty');
    await core.close();
    const r = await cli(['artifacts', session.id]);
    expect(r.code).toBe(0);
    expect(r.out).toBe(`No artifacts in session ${session.id}.`);
    expect((await cli(['artifacts', '../x'])).code).toBe(2);
    const unknown = await cli(['artifacts', 'nobody']);
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/No session "nobody"\. List the sessions with `openai4s sessions`/);
  });

  it('refuses an unknown session before any request: no evidence, no workspace made for it', async () => {
    const before = downloads();
    const r = await pdb(['--session', 'does-not-exist']);
    expect(r.code).toBe(1);
    expect(r.err).toBe('openai4s science: No session "does-not-exist". List the sessions with `openai4s sessions`.');
    expect(downloads()).toBe(before);
    expect(fs.existsSync(path.join(dataDir, 'workspaces', 'does-not-exist'))).toBe(false);
  });

  it('downloads into the workspace of a session that exists', async () => {
    const session = newSession('pdb download');
    const r = await pdb(['--session', session]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const core = createCore({ env: { PATH: process.env.PATH, OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0' } });
    const workspace = core.kernels.workspaceFor(session);
    await core.close();
    expect(fs.readFileSync(path.join(workspace, 'structures/4INS.pdb')).equals(fixture('pdb-4INS.pdb'))).toBe(true);
  });

  it('refuses an --out under /proc, /sys or /dev, in the app’s data folder, a file, or a folder under a file, on one line before any request', async () => {
    const file = path.join(outside, 'a-file.txt');
    fs.symlinkSync(dataDir, path.join(outside, 'link-to-data'));
    fs.writeFileSync(file, 'x');
    const before = downloads();
    const cases: [string, RegExp][] = [
      ['/proc/nope', /--out \/proc\/nope is under \/proc, a system folder; give a folder of your own\./],
      ['/sys/x/y', /is under \/sys, a system folder/],
      ['/dev/shm/x', /is under \/dev, a system folder/],
      [file, /--out .*a-file\.txt exists and is not a folder; give a folder \(it is created when missing\)\./],
      [path.join(file, 'sub'), /--out .*a-file\.txt\/sub cannot be created: .*a-file\.txt is not a folder/],
      [dataDir, /--out .* is inside the app’s data folder \(.*\); give a folder outside it, or --session ID to download into that session’s workspace\./],
      [path.join(dataDir, 'ledger-side'), /is inside the app’s data folder/],
      [path.join(outside, 'link-to-data', 'x'), /is inside the app’s data folder/],
    ];
    for (const [out, message] of cases) {
      const r = await pdb(['--out', out]);
      expect(r.code, out).toBe(2);
      expect(r.err, out).toMatch(message);
      expect(r.err.split('\n'), out).toHaveLength(1);
    }
    expect(downloads()).toBe(before);
  });

  it('--out a new folder is created and receives the download, a session’s workspace too', async () => {
    const inWorkspaces = await pdb(['--out', path.join(dataDir, 'workspaces', 'by-hand')]);
    expect(inWorkspaces.err).toBe('');
    expect(inWorkspaces.code).toBe(0);
    const out = path.join(outside, 'new', 'structures-here');
    const r = await pdb(['--out', out]);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(fs.readFileSync(path.join(out, 'structures/4INS.pdb')).equals(fixture('pdb-4INS.pdb'))).toBe(true);
  });
});
