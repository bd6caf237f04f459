import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputeJobView } from '../../../src-preload/contract/compute';
import type { Core } from '../../../src-main/core/core';
import { harvestJob, MAX_OUTPUT_BYTES } from '../../../src-main/core/compute/harvest';
import type { SchedulerStatus } from '../../../src-main/core/compute/scheduler';
import { localTransport, type Transport } from '../../../src-main/core/compute/transport';
import { computeWorld, sessionWith } from './support';

/**
 * A job writes its own folder, so what comes back from it is untrusted: a declared output
 * or a log that is a symlink (or sits under a symlinked folder) must never make the host
 * read the file it points at. It counts as not written, and the job says so.
 */

const SECRET = 'host-only secret: never an artifact\n';

describe('harvest of an untrusted job folder', () => {
  let world: ReturnType<typeof computeWorld>;
  let core: Core;
  let sessionId: string;
  let outside: string;

  beforeAll(() => {
    world = computeWorld([]);
    core = world.open();
    sessionId = sessionWith(core);
    outside = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-outside-'));
    fs.writeFileSync(path.join(outside, 'secret.txt'), SECRET);
  });

  afterAll(async () => {
    await world.cleanup();
    fs.rmSync(outside, { recursive: true, force: true });
  });

  const job = (outputs: string[]): ComputeJobView =>
    ({ id: `job_${'a'.repeat(16)}`, sessionId, target: 't', targetKind: 'ssh', schedulerJobId: '1', node: null, partition: null, scriptSha256: '0'.repeat(64), inputs: [], outputs }) as unknown as ComputeJobView;
  const final: SchedulerStatus = { state: 'completed', exitCode: 0, node: 'n1', partition: null, elapsedSeconds: 1, startedAt: null, endedAt: null, reason: null };

  /** Lays the hostile folder: one honest output, a symlinked output, a symlinked folder and a symlinked log. */
  function plant(dir: string): void {
    fs.mkdirSync(path.join(dir, 'data'), { recursive: true });
    fs.mkdirSync(path.join(dir, '.openai4s'), { recursive: true });
    fs.writeFileSync(path.join(dir, 'data/ok.txt'), 'honest output\n');
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, 'out.txt'));
    fs.symlinkSync(outside, path.join(dir, 'linked'));
    fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(dir, '.openai4s/stdout.log'));
  }

  function expectNothingRead(result: Awaited<ReturnType<typeof harvestJob>>): void {
    expect(result.state).toBe('failed');
    expect(result.missing).toEqual(['out.txt', 'linked/secret.txt']);
    expect(result.reason).toMatch(/"out.txt", "linked\/secret.txt" were not written/);
    expect(result.outputs.map((o) => o.path)).toEqual(['data/ok.txt']);
    expect(result.logs.stdout).toBeNull();
    for (const a of core.provenance.artifacts.list(sessionId)) {
      const bytes = Buffer.from(core.provenance.artifacts.read(a.latest.id).base64, 'base64').toString();
      expect(bytes).not.toContain('host-only secret');
    }
  }

  it('on this machine: symlinks in the job folder are refused, not followed', async () => {
    const dir = fs.mkdtempSync(path.join(world.dataDir, 'jobdir-'));
    plant(dir);
    const result = await harvestJob({ job: job(['data/ok.txt', 'out.txt', 'linked/secret.txt']), final, transport: localTransport(process.env), remoteDir: dir, harvestDir: dir, artifacts: core.provenance.artifacts });
    expectNothingRead(result);
  });

  it('from a remote target: symlinks that arrive in the harvested copy are refused, not followed', async () => {
    const harvestDir = path.join(world.dataDir, 'harvest-remote');
    // A hostile target: it claims every file is regular and its tar stream carries symlinks.
    const transport: Transport = {
      where: 'hostile',
      remote: true,
      exec: async (argv) => ({ code: 0, stdout: `${argv.slice(5).map((f) => `14 ${f}`).join('\n')}\n`, stderr: '' }),
      upload: async () => undefined,
      download: async (_remote, _files, local) => plant(local),
    };
    const result = await harvestJob({ job: job(['data/ok.txt', 'out.txt', 'linked/secret.txt']), final, transport, remoteDir: '/remote/job', harvestDir, artifacts: core.provenance.artifacts });
    expectNothingRead(result);
  });

  it('leaves a declared output over the harvest limit on the target, named with its size, never read into memory', async () => {
    const dir = fs.mkdtempSync(path.join(world.dataDir, 'jobdir-big-'));
    fs.writeFileSync(path.join(dir, 'small.txt'), 'fits\n');
    // Sparse: 1 GiB and one byte on the file system's word, no disk used.
    const huge = path.join(dir, 'huge.bin');
    fs.writeFileSync(huge, '');
    fs.truncateSync(huge, MAX_OUTPUT_BYTES + 1);
    const result = await harvestJob({ job: job(['small.txt', 'huge.bin']), final, transport: localTransport(process.env), remoteDir: dir, harvestDir: dir, artifacts: core.provenance.artifacts });
    expect(result.state).toBe('failed');
    expect(result.outputs.map((o) => o.path)).toEqual(['small.txt']);
    expect(result.missing).toEqual(['huge.bin']);
    expect(result.reason).toBe(`declared output "huge.bin" is 1,073,741,825 bytes, over the 1,073,741,824 the app harvests; it was left on this machine in ${dir} (fetch it yourself, or have the job write less)`);
  });

  it('from a remote target: an output the target lists as too large is not downloaded; one that arrives larger than said is refused too', async () => {
    const harvestDir = path.join(world.dataDir, 'harvest-big');
    const downloaded: string[][] = [];
    const transport: Transport = {
      where: 'big-remote',
      remote: true,
      // The target's listing: a 5 GiB result, and a "small" one that arrives at 2 KB.
      exec: async () => ({ code: 0, stdout: `5368709120 result.h5\n10 liar.txt\n`, stderr: '' }),
      upload: async () => undefined,
      download: async (_remote, files, local) => {
        downloaded.push(files);
        fs.mkdirSync(local, { recursive: true });
        fs.writeFileSync(path.join(local, 'liar.txt'), 'x'.repeat(2048));
      },
    };
    const result = await harvestJob({ job: job(['result.h5', 'liar.txt']), final, transport, remoteDir: '/remote/job', harvestDir, artifacts: core.provenance.artifacts, maxOutputBytes: 1024 });
    expect(downloaded).toEqual([['liar.txt']]);
    expect(result.state).toBe('failed');
    expect(result.outputs).toEqual([]);
    expect(result.missing).toEqual(['result.h5', 'liar.txt']);
    expect(result.reason).toMatch(/^declared output "result\.h5" is 5,368,709,120 bytes, over the 1,024 the app harvests; it was left on big-remote in \/remote\/job .*; declared output "liar\.txt" is 2,048 bytes/);
  });

  it('from a remote target: a log over the harvest limit is cut to its last bytes there, and only those are copied here', async () => {
    const dir = fs.mkdtempSync(path.join(world.dataDir, 'jobdir-log-'));
    fs.mkdirSync(path.join(dir, '.openai4s'));
    // A runaway print loop: 3 MB of stdout ending in the line that matters.
    fs.writeFileSync(path.join(dir, '.openai4s/stdout.log'), `${'x'.repeat(3 * 1024 * 1024)}\nthe last line\n`);
    fs.writeFileSync(path.join(dir, '.openai4s/stderr.log'), 'a short stderr\n');
    // The real shell and tar commands, as over ssh, with the folder standing for the remote one.
    const local = localTransport(process.env);
    const copied: string[][] = [];
    const transport: Transport = { ...local, where: 'remote', remote: true, download: (remote, files, to) => (copied.push(files), local.download(remote, files, to)) };
    const harvestDir = path.join(world.dataDir, 'harvest-log');
    const limit = 1024 * 1024;
    const result = await harvestJob({ job: job([]), final, transport, remoteDir: dir, harvestDir, artifacts: core.provenance.artifacts, maxLogBytes: limit });
    expect(copied).toEqual([['.openai4s/stdout.log.tail', '.openai4s/stderr.log']]);
    expect(fs.statSync(path.join(harvestDir, '.openai4s/stdout.log.tail')).size).toBe(limit + 1);
    expect(fs.existsSync(path.join(harvestDir, '.openai4s/stdout.log'))).toBe(false);
    const stdout = Buffer.from(core.provenance.artifacts.read(result.logs.stdout!.versionId, 4 * limit).base64, 'base64').toString();
    expect(stdout.startsWith(`[earlier bytes dropped; the last ${limit} kept]\n`)).toBe(true);
    expect(stdout.endsWith('x\nthe last line\n')).toBe(true);
    expect(Buffer.from(core.provenance.artifacts.read(result.logs.stderr!.versionId).base64, 'base64').toString()).toBe('a short stderr\n');
  });
});
