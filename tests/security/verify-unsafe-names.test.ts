import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../../src-main/core/export/verify';
import { forgeV1Manifest, genuineExport, json, removeExports, withForgedManifest, writePackage, type GenuineExport } from './support/exportPackages';

// Attack: a package whose manifest lists (and whose zip holds) a file named to escape the
// folder it is unpacked into. `verify` used to re-hash it and say ok; an extractor then
// writes it wherever the name points.
let genuine: GenuineExport;
beforeAll(async () => {
  genuine = await genuineExport({ sign: false });
});
afterAll(removeExports);

const PAYLOAD = new TextEncoder().encode('#!/bin/sh\necho owned\n');
const UNSAFE: Record<string, string> = {
  '../../x': '".." segment',
  'notes/../../../.bashrc': '".." segment',
  '/etc/cron.d/x': 'absolute path',
  'a\\..\\..\\x.txt': 'backslash',
  'C:/Windows/x.dll': 'drive letter',
  'C:x': 'drive letter',
  'x\u0000.txt': 'NUL byte',
  'x\u001b]52;c;b3duZWQ=\u0007.txt': 'control character',
  'x\u009b.txt': 'control character',
  'invoice\u202efdp.exe': 'text-direction character',
  'a//b': 'empty segment',
  './x': '"." segment',
};

describe('verify refuses unsafe entry names', () => {
  it('accepts the genuine package (control)', () => {
    expect(verifyExport(genuine.zipFile)).toMatchObject({ ok: true, problems: [] });
  });

  for (const [name, reason] of Object.entries(UNSAFE)) {
    it(`refuses ${JSON.stringify(name)} listed in a re-hashed manifest (${reason})`, () => {
      const files = [...genuine.files.entries(), [name, PAYLOAD] as const];
      const report = verifyExport(writePackage(genuine, 'unsafe', withForgedManifest(genuine, files)));
      expect(report.ok).toBe(false);
      const refusal = report.issues.find((i) => i.kind === 'refused' && i.message.includes(JSON.stringify(name)));
      expect(refusal?.message).toMatch(/unsafe name/);
      expect(refusal?.message).toContain(reason);
    });
  }

  it('refuses an unsafe name in a format-1 package too (what old verify said ok to)', () => {
    const files = [...[...genuine.files.entries()].filter(([n]) => n !== 'manifest.json'), ['../../x', PAYLOAD] as const];
    const entries = [...files.map(([n, data]) => ({ name: n, data })), { name: 'manifest.json', data: json(forgeV1Manifest(genuine.manifest, files)) }];
    const report = verifyExport(writePackage(genuine, 'unsafe-v1', entries));
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/"\.\.\/\.\.\/x": refused: unsafe name: the name has a "\.\." segment/);
  });

  it('refuses an unsafe name that only the manifest lists (the zip holds a safe one)', () => {
    const files = [...genuine.files.entries()];
    const entries = withForgedManifest(genuine, [...files, ['../../x', PAYLOAD] as const]).map((e) => (e.name === '../../x' ? { ...e, name: 'x' } : e));
    const report = verifyExport(writePackage(genuine, 'unsafe-listed', entries));
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/"\.\.\/\.\.\/x": refused: the manifest lists an unsafe name/);
  });
});
