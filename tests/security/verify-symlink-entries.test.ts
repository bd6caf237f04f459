import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../../src-main/core/export/verify';
import { genuineExport, removeExports, withForgedManifest, writePackage, type GenuineExport } from './support/exportPackages';
import type { RawEntry } from './support/rawZip';

// Attack: an entry whose Unix attributes make it a symlink (`zip --symlinks`). Its bytes are
// the link's target and hash like any file, so verify said ok, and unzip then created a link
// (to ~/.ssh, to /etc) where the manifest promised a file.
let genuine: GenuineExport;
beforeAll(async () => {
  genuine = await genuineExport({ sign: false });
});
afterAll(removeExports);

const TARGET = new TextEncoder().encode('/etc/passwd');
const S_IFLNK = 0o120000;
const withEntry = (extra: RawEntry): RawEntry[] => {
  const files = [...genuine.files.entries(), [extra.name, extra.data] as const];
  return withForgedManifest(genuine, files).map((e) => (e.name === extra.name ? extra : e));
};

describe('verify refuses entries that are not files or folders', () => {
  it('accepts entries whose Unix attributes say regular file or folder (control)', () => {
    const entries = [{ name: 'ledger/', data: new Uint8Array(0), deflate: false, attributes: (0o040755 << 16) >>> 0 }, ...withEntry({ name: 'notes.txt', data: TARGET, attributes: (0o100644 << 16) >>> 0 })];
    expect(verifyExport(writePackage(genuine, 'regular-attrs', entries))).toMatchObject({ ok: true, problems: [] });
  });

  it('refuses a symlink entry, naming it, even when the manifest lists its bytes', () => {
    const report = verifyExport(writePackage(genuine, 'symlink', withEntry({ name: 'notes.txt', data: TARGET, deflate: false, attributes: ((S_IFLNK | 0o777) << 16) >>> 0 })));
    expect(report.ok).toBe(false);
    expect(report.problems).toEqual(['"notes.txt": refused: its attributes make it a symbolic link, which unzip would create instead of a file; an export holds only files and folders']);
    expect(report.issues[0]).toMatchObject({ kind: 'refused', entry: 'notes.txt' });
  });

  it('refuses a device or fifo entry', () => {
    for (const [mode, kind] of [[0o020644, 'a character device'], [0o010644, 'a fifo']] as const) {
      const report = verifyExport(writePackage(genuine, 'special', withEntry({ name: 'notes.txt', data: TARGET, attributes: (mode << 16) >>> 0 })));
      expect(report.problems).toEqual([`"notes.txt": refused: its attributes make it ${kind}, which unzip would create instead of a file; an export holds only files and folders`]);
    }
  });

  it('refuses a package that zip --symlinks built', () => {
    const folder = path.join(genuine.dataDir, 'zip-symlinks');
    fs.mkdirSync(folder);
    for (const [name, data] of genuine.files) {
      fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
      fs.writeFileSync(path.join(folder, name), data);
    }
    // A listed file replaced by a link; the forged manifest lists the link's target as its bytes.
    const listed = genuine.manifest.files[0]!.path;
    const manifest = withForgedManifest(genuine, [...[...genuine.files].filter(([n]) => n !== listed), [listed, TARGET]]).find((e) => e.name === 'manifest.json')!;
    fs.writeFileSync(path.join(folder, 'manifest.json'), manifest.data);
    fs.rmSync(path.join(folder, listed));
    fs.symlinkSync('/etc/passwd', path.join(folder, listed));
    const zipFile = path.join(genuine.dataDir, 'zip-symlinks.zip');
    execFileSync('/usr/bin/zip', ['-q', '-r', '-X', '--symlinks', zipFile, '.'], { cwd: folder });
    const report = verifyExport(zipFile);
    expect(report.ok).toBe(false);
    expect(report.problems).toContain(`${JSON.stringify(listed)}: refused: its attributes make it a symbolic link, which unzip would create instead of a file; an export holds only files and folders`);
  });
});
