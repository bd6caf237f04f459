import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8 } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { receivePackage } from '../../../src-main/core/export/receivePackage';
import { writeSessionPackage } from '../../support/sessionPackage';

let dataDir: string;
let other: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-receive-'));
  other = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-receive-other-'));
});
afterAll(() => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(other, { recursive: true, force: true });
});

function writePackage(name: string, files: Record<string, string>, edit?: (entries: Record<string, Uint8Array>) => void): string {
  return writeSessionPackage(path.join(other, name), files, { signerDataDir: other, sessionId: 'ses_abc/..', ...(edit ? { edit } : {}) });
}

const FILES = { 'README.md': '# Insulin\n', 'notebook.ipynb': '{"cells":[]}', 'artifacts/v1/ins.fasta': '>INS\nMALW\n' };

describe('receivePackage (a double-clicked .openai4s.zip)', () => {
  it('verifies first, then unpacks a package that verifies under <data root>/received', () => {
    const received = receivePackage(writePackage('good.openai4s.zip', FILES), dataDir);
    expect(received).toMatchObject({ verified: true, title: 'Insulin', sessionId: 'ses_abc/..', appVersion: '0.1.0', files: 3, problems: [] });
    expect(received.signature).toMatch(/signed/);
    expect(path.dirname(received.folder!)).toBe(path.join(dataDir, 'received'));
    // The session id is made safe for a folder name; nothing escapes received/.
    expect(path.basename(received.folder!)).toMatch(/^ses_abc___-[0-9a-f]{12}$/);
    expect(fs.readFileSync(path.join(received.folder!, 'artifacts', 'v1', 'ins.fasta'), 'utf8')).toBe('>INS\nMALW\n');
    expect(fs.readFileSync(path.join(received.folder!, 'README.md'), 'utf8')).toBe('# Insulin\n');
  });

  it('reuses the folder when the same package is opened again', () => {
    const file = writePackage('again.openai4s.zip', FILES);
    const first = receivePackage(file, dataDir);
    fs.writeFileSync(path.join(first.folder!, 'note.txt'), 'mine');
    const second = receivePackage(file, dataDir);
    expect(second.folder).toBe(first.folder);
    expect(fs.readFileSync(path.join(second.folder!, 'note.txt'), 'utf8')).toBe('mine');
  });

  it('does not unpack a package whose file changed since export, and names the file', () => {
    const file = writePackage('edited.openai4s.zip', FILES, (zip) => (zip['artifacts/v1/ins.fasta'] = strToU8('>INS\nEDITED\n')));
    const received = receivePackage(file, dataDir);
    expect(received.verified).toBe(false);
    expect(received.folder).toBeNull();
    expect(received.problems).toEqual([expect.stringMatching(/^artifacts\/v1\/ins\.fasta: changed/)]);
  });

  it('refuses what is not a package, saying why, and writes nothing', () => {
    const file = path.join(other, 'not.openai4s.zip');
    fs.writeFileSync(file, 'not a zip');
    const before = fs.readdirSync(path.join(dataDir, 'received')).length;
    const received = receivePackage(file, dataDir);
    expect(received).toMatchObject({ verified: false, folder: null, title: null });
    expect(received.problems[0]).toContain('not a readable zip');
    expect(fs.readdirSync(path.join(dataDir, 'received'))).toHaveLength(before);
  });
});
