import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../../src-main/core/export/verify';
import { genuineExport, removeExports, withForgedManifest, writePackage, type GenuineExport } from './support/exportPackages';
import { patchDeclaredSize, type RawEntry } from './support/rawZip';

// Attack: data hidden in a folder entry (`evidence/`). `verify` skipped every name ending
// in "/" without looking, so whatever such an entry carries was never checked, while
// some extractors write it out as a file.
let genuine: GenuineExport;
beforeAll(async () => {
  genuine = await genuineExport({ sign: false });
});
afterAll(removeExports);

const HIDDEN = new TextEncoder().encode('{"kind":"forged evidence"}\n');
const genuineEntries = (): RawEntry[] => [...genuine.files].map(([name, data]) => ({ name, data }));

describe('verify refuses folder entries that carry data', () => {
  it('accepts empty folder entries, as some zip tools add them (control)', () => {
    const report = verifyExport(writePackage(genuine, 'dirs-empty', [{ name: 'ledger/', data: new Uint8Array(0), deflate: false }, ...genuineEntries()]));
    expect(report).toMatchObject({ ok: true, problems: [] });
  });

  it('refuses a folder entry that declares data', () => {
    for (const deflate of [true, false]) {
      const report = verifyExport(writePackage(genuine, 'dir-data', [...genuineEntries(), { name: 'evidence/', data: HIDDEN, deflate }]));
      expect(report.ok).toBe(false);
      expect(report.problems).toContain(`"evidence/": refused: a folder entry carrying ${HIDDEN.byteLength} bytes of data (extractors drop it; verify would have ignored it)`);
    }
  });

  it('refuses a folder entry that declares 0 bytes but whose compressed data inflates to more', () => {
    const file = writePackage(genuine, 'dir-hidden', [...genuineEntries(), { name: 'evidence/', data: HIDDEN }]);
    // Patch the declared size to 0 in both headers; the deflated bytes stay.
    const report = verifyExport(rezeroDeclared(file, 'evidence/'));
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/"evidence\/": refused: it inflates to more than the 0 bytes it declares/);
  });

  it('refuses a name that is both a file and a folder', () => {
    const files = [...genuine.files.entries(), ['session.json/evil.txt', HIDDEN] as const];
    const report = verifyExport(writePackage(genuine, 'file-folder', withForgedManifest(genuine, files)));
    expect(report.ok).toBe(false);
    expect(report.problems).toContain('"session.json/evil.txt": refused: its folder "session.json" is also a file in the zip');
  });
});

function rezeroDeclared(file: string, name: string): string {
  fs.writeFileSync(file, patchDeclaredSize(new Uint8Array(fs.readFileSync(file)), name, 0));
  return file;
}
