import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyExport } from '../../src-main/core/export/verify';
import { canonicalDigest, forgeV1Manifest, genuineExport, json, removeExports, writePackage, type GenuineExport } from './support/exportPackages';
import type { RawEntry } from './support/rawZip';

// Attack: edit what the manifest says about the session (its id, its title, when it was
// made, by which version) and keep the digest. The digest used to cover only the file
// list, so such an edit verified. It must now cover every field, in a canonical form
// that is documented (this test recomputes it independently from that documentation).
let genuine: GenuineExport;
beforeAll(async () => {
  genuine = await genuineExport({ sign: false });
});
afterAll(removeExports);

function withManifest(name: string, manifest: Record<string, unknown>): string {
  const entries: RawEntry[] = [...genuine.files].map(([n, data]) => ({ name: n, data: n === 'manifest.json' ? json(manifest) : data }));
  return writePackage(genuine, name, entries);
}

const EDITS: Record<string, (m: Record<string, unknown>) => Record<string, unknown>> = {
  'session.id': (m) => ({ ...m, session: { ...(m.session as object), id: 'someone-elses-session' } }),
  'session.title': (m) => ({ ...m, session: { ...(m.session as object), title: 'A title the author never wrote' } }),
  'session.createdAt': (m) => ({ ...m, session: { ...(m.session as object), createdAt: '2001-01-01T00:00:00.000Z' } }),
  createdAt: (m) => ({ ...m, createdAt: '2001-01-01T00:00:00.000Z' }),
  'app.version': (m) => ({ ...m, app: { ...(m.app as object), version: '99.0.0' } }),
  'app.name': (m) => ({ ...m, app: { ...(m.app as object), name: 'Other' } }),
  'files[].bytes': (m) => ({ ...m, files: (m.files as { bytes: number }[]).map((f, i) => (i === 0 ? { ...f, bytes: f.bytes + 1 } : f)) }),
};

describe('the manifest digest covers every field', () => {
  it('is the sha256 of the documented canonical JSON of every field but digest and signature', () => {
    const { manifest } = genuine;
    expect(manifest.format).toBe('openai4s-session-export/2');
    expect(Object.keys(manifest).sort()).toEqual(['app', 'createdAt', 'digest', 'files', 'format', 'session', 'signature', 'signer']);
    expect(Object.keys(manifest.session as object).sort()).toEqual(['createdAt', 'id', 'title']);
    expect(manifest.digest).toBe(canonicalDigest(manifest));
    const report = verifyExport(genuine.zipFile);
    expect(report).toMatchObject({ ok: true, format: 'openai4s-session-export/2' });
    expect(report.covers).toEqual(expect.arrayContaining(['session.id', 'session.title', 'session.createdAt', 'createdAt', 'app.version', 'format', 'files[].sha256', 'signer']));
  });

  for (const [field, edit] of Object.entries(EDITS)) {
    it(`catches an edit of ${field} that keeps the digest`, () => {
      const report = verifyExport(withManifest(`edit-${field}`, edit(genuine.manifest)));
      expect(report.ok).toBe(false);
      expect(report.problems).toContain('manifest.json: its digest does not match its contents (the manifest was edited)');
    });
  }

  it('refuses a field the digest would not cover', () => {
    const report = verifyExport(withManifest('extra-field', { ...genuine.manifest, reviewedBy: 'Nobel committee' }));
    expect(report.ok).toBe(false);
    expect(report.problems.join('\n')).toMatch(/manifest\.json: unexpected field "reviewedBy"/);
  });

  it('still verifies a format-1 package, saying plainly what its digest does not cover', () => {
    const v1 = forgeV1Manifest(genuine.manifest, [...genuine.files]);
    const report = verifyExport(withManifest('format-1', { ...v1, session: { id: 'edited', title: 'edited' } }));
    expect(report).toMatchObject({ ok: true, format: 'openai4s-session-export/1', covers: ['files[].path', 'files[].bytes', 'files[].sha256'] });
    expect(report.signature.status).toBe('unsigned');
    expect(report.notes.join('\n')).toMatch(/covers only the file list; the session id and title, the export time, the app version and the format are not covered/);
  });
});
