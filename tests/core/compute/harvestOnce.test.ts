import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputeJobView } from '../../../src-preload/contract/compute';
import type { Core } from '../../../src-main/core/core';
import { harvestJob } from '../../../src-main/core/compute/harvest';
import type { SchedulerStatus } from '../../../src-main/core/compute/scheduler';
import { localTransport, type Transport } from '../../../src-main/core/compute/transport';
import { computeWorld, sessionWith } from './support';

/**
 * A harvested output lands in the data root once: the artifact store's blob is the job
 * folder's own file (a hard link, on this machine) or the downloaded copy itself (moved out
 * of the harvest folder), never a second full copy. A harvest done again (retried after a
 * crash or a failed poll) records no second version of an output whose bytes did not change.
 */

const MB = 1024 * 1024;

describe('harvest stores each output once', () => {
  let world: ReturnType<typeof computeWorld>;
  let core: Core;
  let sessionId: string;
  let n = 0;

  beforeAll(() => {
    world = computeWorld([]);
    core = world.open();
    sessionId = sessionWith(core);
  });

  afterAll(async () => world.cleanup());

  const job = (outputs: string[]): ComputeJobView =>
    ({ id: `job_${String(++n).padStart(16, '0')}`, sessionId, target: 't', targetKind: 'ssh', schedulerJobId: '1', node: null, partition: null, scriptSha256: '0'.repeat(64), inputs: [], outputs }) as unknown as ComputeJobView;
  const final: SchedulerStatus = { state: 'completed', exitCode: 0, node: 'n1', partition: null, elapsedSeconds: 1, startedAt: null, endedAt: null, reason: null };
  const blobOf = (versionId: string) => core.provenance.artifacts.blobPath(versionId);
  const sha = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
  /** The versions of a path that this job made (other tests' jobs write the same paths). */
  const versionsOf = (logical: string, jobId: string) => {
    const a = core.provenance.artifacts.list(sessionId).find((x) => x.path === logical);
    return (a ? core.provenance.artifacts.versions(a.id) : []).filter((v) => v.provenance.producer.kind === 'job' && v.provenance.producer.jobId === jobId);
  };

  /** A job folder with a large output, a small one, and the wrapper's logs. */
  function jobFolder(big: Buffer): string {
    const dir = fs.mkdtempSync(path.join(world.dataDir, 'jobdir-'));
    fs.mkdirSync(path.join(dir, 'res'), { recursive: true });
    fs.mkdirSync(path.join(dir, '.openai4s'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'res/big.bin'), big);
    fs.writeFileSync(path.join(dir, 'small.txt'), 'small\n');
    fs.writeFileSync(path.join(dir, '.openai4s/stdout.log'), 'out\n');
    fs.writeFileSync(path.join(dir, '.openai4s/stderr.log'), '');
    return dir;
  }

  it('on this machine: the job folder’s file is copied, so editing it in place afterwards leaves the artifact’s bytes whole', async () => {
    const big = Buffer.alloc(8 * MB, 7);
    const dir = jobFolder(big);
    const j = job(['res/big.bin', 'small.txt']);
    const result = await harvestJob({ job: j, final, transport: localTransport(process.env), remoteDir: dir, harvestDir: path.join(dir, 'unused'), artifacts: core.provenance.artifacts });
    expect(result).toMatchObject({ state: 'completed', missing: [] });
    const out = result.outputs.find((o) => o.path === 'res/big.bin')!;
    expect(out).toMatchObject({ sha256: sha(big), size: big.length });
    // The job folder keeps its files, and they are not the artifact's inode.
    expect(fs.statSync(blobOf(out.versionId)).ino).not.toBe(fs.statSync(path.join(dir, 'res/big.bin')).ino);
    expect(fs.statSync(path.join(dir, 'res/big.bin')).nlink).toBe(1);
    expect(fs.readFileSync(path.join(dir, 'small.txt'), 'utf8')).toBe('small\n');
    // The scientist overwrites the output in place (same inode): the harvested version reads back as harvested.
    const fd = fs.openSync(path.join(dir, 'res/big.bin'), 'r+');
    fs.writeSync(fd, Buffer.from('edited'), 0, 6, 0);
    fs.closeSync(fd);
    expect(Buffer.from(core.provenance.artifacts.read(out.versionId, 16 * MB).base64, 'base64').equals(big)).toBe(true);
  });

  it('from a remote target: the downloaded copy is moved into the store, and the harvest folder keeps no second copy', async () => {
    const big = Buffer.alloc(8 * MB, 9);
    const remoteDir = jobFolder(big);
    const harvestDir = fs.mkdtempSync(path.join(world.dataDir, 'harvest-'));
    const downloaded = new Map<string, number>();
    const local = localTransport(process.env);
    // The target is this machine reached as a remote one: a real listing over bash and a real tar download.
    const transport: Transport = {
      ...local,
      where: 'loopback-remote',
      remote: true,
      download: async (from, files, to) => {
        await local.download(from, files, to);
        for (const f of files) downloaded.set(f, fs.statSync(path.join(to, f)).ino);
      },
    };
    const j = job(['res/big.bin', 'small.txt']);
    const result = await harvestJob({ job: j, final, transport, remoteDir, harvestDir, artifacts: core.provenance.artifacts });
    expect(result).toMatchObject({ state: 'completed', missing: [] });
    const out = result.outputs.find((o) => o.path === 'res/big.bin')!;
    expect(fs.statSync(blobOf(out.versionId)).ino).toBe(downloaded.get('res/big.bin'));
    expect(fs.existsSync(path.join(harvestDir, 'res/big.bin'))).toBe(false);
    expect(fs.existsSync(path.join(harvestDir, 'small.txt'))).toBe(false);
    expect(Buffer.from(core.provenance.artifacts.read(out.versionId, 16 * MB).base64, 'base64').equals(big)).toBe(true);
    // The target's own file is untouched.
    expect(fs.readFileSync(path.join(remoteDir, 'res/big.bin')).equals(big)).toBe(true);
  });

  it('a harvest done again keeps one version per unchanged output and log; changed bytes are a new version', async () => {
    const dir = jobFolder(Buffer.from('first\n'));
    const j = job(['res/big.bin', 'small.txt']);
    const again = () => harvestJob({ job: j, final, transport: localTransport(process.env), remoteDir: dir, harvestDir: dir, artifacts: core.provenance.artifacts });
    const first = await again();
    const second = await again();
    expect(second.outputs).toEqual(first.outputs);
    expect(second.logs).toEqual(first.logs);
    expect(versionsOf('res/big.bin', j.id)).toHaveLength(1);
    expect(versionsOf('small.txt', j.id)).toHaveLength(1);
    expect(versionsOf(`compute/${j.id}/stdout.log`, j.id)).toHaveLength(1);
    expect(versionsOf(`compute/${j.id}/stderr.log`, j.id)).toHaveLength(1);

    // Different bytes at the same path: a new version; the unchanged output stays one version.
    fs.rmSync(path.join(dir, 'res/big.bin'));
    fs.writeFileSync(path.join(dir, 'res/big.bin'), 'second\n');
    const third = await again();
    const changed = third.outputs.find((o) => o.path === 'res/big.bin')!;
    expect(changed.versionId).not.toBe(first.outputs.find((o) => o.path === 'res/big.bin')!.versionId);
    expect(versionsOf('res/big.bin', j.id).map((v) => v.sha256)).toEqual([sha(Buffer.from('first\n')), sha(Buffer.from('second\n'))]);
    expect(third.outputs.find((o) => o.path === 'small.txt')).toEqual(first.outputs.find((o) => o.path === 'small.txt'));
  });

  it('another job writing the same bytes at the same path still gets a version of its own (its provenance)', async () => {
    const dirA = jobFolder(Buffer.from('same\n'));
    const dirB = jobFolder(Buffer.from('same\n'));
    const [a, b] = [job(['res/big.bin']), job(['res/big.bin'])];
    const ra = await harvestJob({ job: a, final, transport: localTransport(process.env), remoteDir: dirA, harvestDir: dirA, artifacts: core.provenance.artifacts });
    const rb = await harvestJob({ job: b, final, transport: localTransport(process.env), remoteDir: dirB, harvestDir: dirB, artifacts: core.provenance.artifacts });
    expect(rb.outputs[0]!.versionId).not.toBe(ra.outputs[0]!.versionId);
    expect(core.provenance.artifacts.version(rb.outputs[0]!.versionId).provenance.producer).toMatchObject({ kind: 'job', jobId: b.id });
  });
});
