import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../../src-main/core/export/verify';
import { forgeManifest, genuineExport, json, removeExports, writePackage, type GenuineExport } from './support/exportPackages';
import type { RawEntry } from './support/rawZip';

// Attack: two entries with one name. A verifier that keeps the last copy hashes the
// genuine file while `unzip` (or a case-insensitive disk) keeps the forged one.
let genuine: GenuineExport;
beforeAll(async () => {
  genuine = await genuineExport({ sign: false });
});
afterAll(removeExports);

const FORGED = new TextEncoder().encode('{"id":"forged","title":"not what was exported"}\n');
const asEntries = (files: Map<string, Uint8Array>): RawEntry[] => [...files].map(([name, data]) => ({ name, data }));

describe('verify refuses duplicate entries', () => {
  it('accepts the genuine package (control)', () => {
    expect(verifyExport(genuine.zipFile).ok).toBe(true);
  });

  it('refuses a forged copy of session.json placed before the genuine one', () => {
    const entries = [{ name: 'session.json', data: FORGED }, ...asEntries(genuine.files)];
    const report = verifyExport(writePackage(genuine, 'dup-first', entries));
    expect(report.ok).toBe(false);
    expect(report.problems).toContain('"session.json": refused: the zip holds this name twice (tools disagree on which copy is the file)');
  });

  it('refuses a forged copy placed after the genuine one', () => {
    const entries = [...asEntries(genuine.files), { name: 'session.json', data: FORGED }];
    const report = verifyExport(writePackage(genuine, 'dup-last', entries));
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/"session\.json": refused: the zip holds this name twice/);
  });

  it('refuses names that are one file on a case-insensitive or normalising disk', () => {
    for (const [twin, of] of [
      ['Session.JSON', 'session.json'],
      ['README.MD', 'README.md'],
      ['caf\u0065\u0301.txt', 'caf\u00e9.txt'],
    ] as const) {
      const files = new Map(genuine.files);
      if (!files.has(of)) files.set(of, FORGED);
      files.set(twin, FORGED);
      files.set('manifest.json', json(forgeManifest(genuine.manifest, [...files], {}, 'drop')));
      const report = verifyExport(writePackage(genuine, 'dup-case', asEntries(files)));
      expect(report.ok, twin).toBe(false);
      expect(report.problems.join('\n'), twin).toContain(`the same file on a case-insensitive disk`);
    }
  });

  it('refuses a manifest that lists one path twice, even when the zip holds it once', () => {
    const listed = [...genuine.files.entries(), ['session.json', FORGED] as const];
    const manifest = forgeManifest(genuine.manifest, listed, {}, 'drop');
    const files = new Map(genuine.files);
    files.set('manifest.json', json(manifest));
    const report = verifyExport(writePackage(genuine, 'dup-manifest', asEntries(files)));
    expect(report.ok).toBe(false);
    expect(report.problems).toContain('"session.json": refused: the manifest lists this name twice');
  });

  it('refuses a manifest listing two case variants of one path (the zip holds one)', () => {
    const listed = [...genuine.files.entries(), ['SESSION.json', FORGED] as const];
    const files = new Map(genuine.files);
    files.set('manifest.json', json(forgeManifest(genuine.manifest, listed, {}, 'drop')));
    const report = verifyExport(writePackage(genuine, 'dup-manifest-case', asEntries(files)));
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/"session\.json": refused: the manifest also lists "SESSION\.json", the same file on a case-insensitive disk/);
  });
});
