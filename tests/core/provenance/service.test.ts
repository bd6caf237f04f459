import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { artifactCapabilities } from '../../../src-main/core/capabilities/tools/artifactTools';
import { normalizeLogicalPath } from '../../../src-main/core/provenance/artifactService';
import { memoryArtifacts, sqliteArtifacts, tmpDir } from './helpers';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const tool = { kind: 'tool' as const, tool: 'save_artifact', runId: 'run-1' };

describe('versioned, content-addressed artifacts', () => {
  it('saving a path again makes a new version; identical bytes share storage, not history', async () => {
    const { service, blobs, evidence } = memoryArtifacts();
    const a = Buffer.from('gene,score\nINS,1\n');
    const v1 = await service.save({ sessionId: 's1', path: 'results/table.csv', bytes: a, producer: tool });
    const v2 = await service.save({ sessionId: 's1', path: 'results/table.csv', bytes: a, producer: tool });
    const v3 = await service.save({ sessionId: 's1', path: 'results/table.csv', bytes: Buffer.from('gene,score\nINS,2\n'), producer: tool });
    expect([v1.number, v2.number, v3.number]).toEqual([1, 2, 3]);
    expect(new Set([v1.id, v2.id, v3.id]).size).toBe(3);
    expect(v1.artifactId).toBe(v3.artifactId);
    expect(v1.sha256).toBe(sha(a));
    expect(v2.sha256).toBe(v1.sha256);
    expect(fs.readdirSync(path.join(blobs.root, v1.sha256.slice(0, 2)))).toEqual([v1.sha256]);
    expect(v1.mime).toBe('text/csv');
    expect(service.versions(v1.artifactId).map((v) => v.id)).toEqual([v1.id, v2.id, v3.id]);
    expect(service.list('s1')).toHaveLength(1);
    expect(service.get(v1.artifactId).latest.id).toBe(v3.id);
    // Each version is its own evidence record.
    expect(evidence.get('s1', v1.evidenceId)!.kind).toBe('artifact_version');
    expect(v1.evidenceId).not.toBe(v2.evidenceId);
    // A tool-made version says why no kernel environment is recorded.
    expect(v1.provenance.environment).toEqual({ status: 'missing', language: null, reason: expect.stringMatching(/not by a kernel cell/) });
  });

  it('reads bytes for previews, truncated at maxBytes; unknown ids are not_found', async () => {
    const { service } = memoryArtifacts();
    const bytes = Buffer.from('0123456789');
    const v = await service.save({ sessionId: 's1', path: 'a.txt', bytes, producer: { kind: 'user' } });
    expect(service.read(v.id)).toEqual({ versionId: v.id, mime: 'text/plain', size: 10, base64: bytes.toString('base64'), truncated: false });
    const part = service.read(v.id, 4);
    expect(Buffer.from(part.base64, 'base64').toString()).toBe('0123');
    expect(part.truncated).toBe(true);
    expect(() => service.read('av_aaaaaaaaaaaaaaaa')).toThrow(/No artifact version/);
    expect(() => service.get('art_aaaaaaaaaaaaaaaa')).toThrow(/No artifact art_/);
  });

  it('refuses paths that leave the workspace and input evidence that does not exist', async () => {
    const { service } = memoryArtifacts();
    for (const bad of ['../x', '/etc/passwd', 'a/../../b', '', 'a//b']) expect(() => normalizeLogicalPath(bad)).toThrow(/workspace-relative/);
    await expect(service.save({ sessionId: 's1', path: 'x.txt', bytes: Buffer.from('x'), producer: tool, inputEvidence: ['ev_aaaaaaaaaaaaaaaa'] })).rejects.toThrow(
      /input evidence ev_aaaaaaaaaaaaaaaa does not exist in session s1/,
    );
  });

  it('persists in SQLite: versions and their evidence survive a reopen', async () => {
    const dataDir = tmpDir();
    const first = sqliteArtifacts(dataDir);
    const v = await first.service.save({ sessionId: 's1', path: 'fig.png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47]), producer: tool });
    first.db.close();
    const second = sqliteArtifacts(dataDir);
    expect(second.service.version(v.id)).toEqual(v);
    expect(second.evidence.missing('s1', [v.evidenceId])).toEqual([]);
    const v2 = await second.service.save({ sessionId: 's1', path: 'fig.png', bytes: Buffer.from('other'), producer: tool });
    expect(v2.number).toBe(2);
    second.db.close();
  });

  it('save_artifact reads only inside the workspace (no symlink escape) and cites its evidence', async () => {
    const { service } = memoryArtifacts();
    const ws = tmpDir('oai4s-ws-');
    fs.mkdirSync(path.join(ws, 'out'));
    fs.writeFileSync(path.join(ws, 'out/seq.fasta'), '>x\nMALW\n');
    fs.symlinkSync('/etc/hostname', path.join(ws, 'out/leak.txt'));
    const caps = artifactCapabilities(() => service);
    const ctx = { sessionId: 's1', runId: 'r1', workspace: ws, signal: new AbortController().signal, origin: 'tool' as const };
    const res = await caps.save_artifact.execute(caps.save_artifact.input.parse({ path: 'out/seq.fasta' }), ctx);
    expect(JSON.parse(res.text)).toMatchObject({ path: 'out/seq.fasta', version: 1, evidence_id: expect.stringMatching(/^ev_/) });
    await expect(caps.save_artifact.execute({ path: 'out/leak.txt' }, ctx)).rejects.toThrow(/outside the session workspace/);
    await expect(caps.save_artifact.execute({ path: 'missing.txt' }, ctx)).rejects.toThrow(/No file "missing.txt"/);
    const listed = JSON.parse((await caps.list_artifacts.execute({}, ctx)).text);
    expect(listed).toEqual([expect.objectContaining({ path: 'out/seq.fasta', versions: 1 })]);
  });
});
