import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { createCore } from '../../../src-main/core/core';
import { writeFileAtomic } from '../../../src-main/core/shared/writeFileAtomic';

// `export -o` and `bibliography --out` wrote wherever they were told: over the app's own
// ledger and signing key, over a device node (as root, /dev/full was replaced), over an
// existing file without asking; into a folder it left a `.partial` and a raw EISDIR.

let dir: string;
let data: string;
let out: string;
let sessionId: string;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cli-output-'));
  data = path.join(dir, 'data');
  out = path.join(dir, 'out');
  fs.mkdirSync(out);
  const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: data, OPENAI4S_KERNEL_PREWARM: '0' } });
  try {
    sessionId = core.ledger.createSession('output paths').id;
  } finally {
    await core.close();
  }
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`) }, { ...process.env, OPENAI4S_DATA_DIR: data, OPENAI4S_KERNEL_PREWARM: '0' });
  return { code, out: stdout, err: stderr };
}

const leftovers = (folder: string) => fs.readdirSync(folder).filter((n) => n.endsWith('.partial'));

describe('CLI output files', () => {
  it('refuses to write into the data folder, also through a symlinked folder, and leaves the ledger and key as they were', async () => {
    // An unsigned export first would not create the key; a signed one does.
    expect((await cli(['export', sessionId, '-o', path.join(out, 'first.zip')])).code).toBe(0);
    const ledger = path.join(data, 'ledger.sqlite3');
    const key = path.join(data, 'export-signing-key.pem');
    const before = [fs.readFileSync(ledger), fs.readFileSync(key)];
    const real = fs.realpathSync(data);
    for (const command of [['export', sessionId, '-o'], ['bibliography', sessionId, '--out']]) {
      const name = command[0];
      const direct = await cli([...command, ledger, '--force']);
      expect(direct).toMatchObject({ code: 1, out: '' });
      expect(direct.err).toBe(`openai4s ${name}: ${ledger} is inside the app’s data folder (${real}); choose a path outside it.\n`);
      fs.symlinkSync(data, path.join(out, `link-${name}`));
      const linked = path.join(out, `link-${name}`, 'export-signing-key.pem');
      const viaLink = await cli([...command, linked, '--force']);
      expect(viaLink.code).toBe(1);
      expect(viaLink.err).toBe(`openai4s ${name}: ${linked} is inside the app’s data folder (${real}); choose a path outside it.\n`);
    }
    expect([fs.readFileSync(ledger), fs.readFileSync(key)]).toEqual(before);
    expect(leftovers(data)).toEqual([]);
  });

  it('refuses a folder, a device and a fifo, saying which, and leaves no .partial file', async () => {
    const folder = path.join(out, 'a-folder');
    fs.mkdirSync(folder);
    const fifo = path.join(out, 'a-fifo');
    execFileSync('mkfifo', [fifo]);
    const cases: [string, string][] = [
      [folder, 'a folder'],
      ['/dev/null', 'a character device'],
      [fifo, 'a fifo (named pipe)'],
    ];
    for (const [target, kind] of cases) {
      for (const command of [['export', sessionId, '-o'], ['bibliography', sessionId, '--out']]) {
        const run = await cli([...command, target, '--force']);
        expect(run.code).toBe(1);
        expect(run.err).toBe(`openai4s ${command[0]}: ${target} is ${kind}, not a file; give the path of a new file.\n`);
      }
    }
    expect(fs.statSync('/dev/null').isCharacterDevice()).toBe(true);
    expect(fs.readdirSync(folder)).toEqual([]);
    expect(leftovers(out)).toEqual([]);
  });

  it('replaces an existing file only with --force', async () => {
    const file = path.join(out, 'kept.zip');
    fs.writeFileSync(file, 'mine');
    for (const command of [['export', sessionId, '-o'], ['bibliography', sessionId, '--out']]) {
      const refused = await cli([...command, file]);
      expect(refused.code).toBe(1);
      expect(refused.err).toBe(`openai4s ${command[0]}: ${file} already exists; give --force to replace it, or choose another name.\n`);
      expect(fs.readFileSync(file, 'utf8')).toBe('mine');
    }
    expect((await cli(['export', sessionId, '-o', file, '--force'])).code).toBe(0);
    expect(fs.readFileSync(file).subarray(0, 2).toString('latin1')).toBe('PK');
    expect((await cli(['export', '--help'])).out).toContain('--force');
    expect((await cli(['bibliography', '--help'])).out).toContain('--force');
    expect(leftovers(out)).toEqual([]);
  });

  it('refuses a file in a folder that does not exist instead of building that folder tree (a typo in the path)', async () => {
    for (const command of [['export', sessionId, '-o'], ['bibliography', sessionId, '--out']]) {
      const missing = path.join(out, 'Dokuments', 'deeper');
      const run = await cli([...command, path.join(missing, 'x.out')]);
      expect(run.code).not.toBe(0);
      expect(run.err).toBe(`openai4s ${command[0]}: the folder ${missing} does not exist; create it first, or choose a file in an existing folder.\n`);
      expect(fs.existsSync(path.join(out, 'Dokuments'))).toBe(false);
    }
  });

  it('reports a write that fails in one line and removes its .partial file', async () => {
    const blocker = path.join(out, 'a-file');
    fs.writeFileSync(blocker, '');
    const run = await cli(['export', sessionId, '-o', path.join(blocker, 'x.zip')]);
    expect(run.code).toBe(1);
    expect(run.err).toBe(`openai4s export: cannot write ${path.join(blocker, 'x.zip')}: a part of its folder path is a file, not a folder; choose another path.\n`);
    // The writer itself: a folder where the file should go.
    const folder = path.join(out, 'rename-target');
    fs.mkdirSync(folder);
    expect(() => writeFileAtomic(folder, 'x')).toThrow(`${folder} is a folder; give a file name inside it.`);
    expect(leftovers(out)).toEqual([]);
  });

  it.skipIf(process.getuid?.() === 0)('names a folder it may not write to, in one line', async () => {
    const locked = path.join(out, 'locked');
    fs.mkdirSync(locked, { mode: 0o500 });
    const run = await cli(['export', sessionId, '-o', path.join(locked, 'x.zip')]);
    expect(run.code).toBe(1);
    expect(run.err).toBe(`openai4s export: cannot write ${path.join(locked, 'x.zip')}: permission denied in ${locked}; choose a folder you can write to.\n`);
  });
});

describe('export --json', () => {
  it('reports the file, its entries, the digest and the signature as one JSON object; a refusal stays one line on stderr', async () => {
    const file = path.join(out, 'reported.zip');
    const run = await cli(['export', sessionId, '-o', file, '--unsigned', '--json']);
    expect(run).toMatchObject({ code: 0, err: '' });
    const report = JSON.parse(run.out) as { files: number; digest: string };
    expect(report).toEqual({ sessionId, file, files: expect.any(Number), digest: expect.stringMatching(/^[0-9a-f]{64}$/), signed: false });
    expect(report.files).toBeGreaterThan(0);
    const again = await cli(['export', sessionId, '-o', file, '--json']);
    expect(again).toMatchObject({ code: 1, out: '', err: `openai4s export: ${file} already exists; give --force to replace it, or choose another name.\n` });
  });
});

describe('CLI arguments that name no package, or too many', () => {
  it('refuses extra arguments to export and verify with a usage error', async () => {
    const exported = await cli(['export', sessionId, 'extra', '-o', path.join(out, 'e.zip')]);
    expect(exported.code).toBe(2);
    expect(exported.err).toBe('openai4s export: takes one session id; unexpected "extra" (the output file goes after -o). See openai4s export --help.\n');
    expect(fs.existsSync(path.join(out, 'e.zip'))).toBe(false);
    const verified = await cli(['verify', 'a.zip', 'b.zip']);
    expect(verified.code).toBe(2);
    expect(verified.err).toBe('openai4s verify: checks one package at a time; unexpected "b.zip" (run openai4s verify once per file). See openai4s verify --help.\n');
  });

  it('says a folder is not a package and a missing file does not exist, in one line', async () => {
    const missing = path.join(out, 'nope.zip');
    for (const command of ['verify', 'reproduce']) {
      const folder = await cli([command, out]);
      expect(folder.code).toBe(1);
      expect(folder.err).toBe(`openai4s ${command}: ${out} is a folder, not a package; give the exported .zip file.\n`);
      const absent = await cli([command, missing]);
      expect(absent.code).toBe(1);
      expect(absent.err).toBe(`openai4s ${command}: ${missing} does not exist.\n`);
    }
  });
});
