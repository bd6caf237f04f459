import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { jobPath } from '../../../src-main/core/compute/jobFolder';
import { localTransport } from '../../../src-main/core/compute/transport';
import { computeWorld, sessionWith } from './support';

/**
 * Where a job's files go and how a hung command ends: input paths that would overwrite the
 * wrapper's records on a case-insensitive disk, a local work root written as "~/…" or
 * relative, and a target command that never answers.
 */

describe('job folder paths', () => {
  it('refuses an input or output that is the wrapper’s folder or the script in another case (one file on macOS and Windows disks)', () => {
    expect(() => jobPath('.OPENAI4S/exit_code', 'Input', 'shell')).toThrow(/Input "\.OPENAI4S\/exit_code" is inside \.openai4s\//);
    expect(() => jobPath('.OpenAI4S', 'Output', 'python')).toThrow(/inside \.openai4s\//);
    expect(() => jobPath('JOB.SH', 'Input', 'shell')).toThrow(/is the job script's own name \(job\.sh\)/);
    expect(jobPath('Results/JOB.SH', 'Output', 'shell')).toBe('Results/JOB.SH');
    expect(jobPath('JOB.SH', 'Output', 'python')).toBe('JOB.SH');
  });
});

describe('a local target’s work root', () => {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-home-'));
  // No Slurm client on PATH: the submission stops at sbatch, after staging the folder.
  const world = computeWorld(
    [
      { name: 'tilde', kind: 'slurm', workRoot: '~/jobs' },
      { name: 'relative', kind: 'slurm', workRoot: 'scratch/jobs' },
    ],
    { HOME: home, PATH: path.join(home, 'no-bin') },
  );

  afterAll(async () => {
    await world.cleanup();
    fs.rmSync(home, { recursive: true, force: true });
  });

  it('"~/jobs" and "scratch/jobs" are under the home folder, never under the app’s working directory', async () => {
    const core = world.open();
    const sessionId = sessionWith(core);
    for (const target of ['tilde', 'relative']) {
      await expect(core.compute.submit({ sessionId, runId: null, target, language: 'shell', script: 'true' })).rejects.toThrow(/sbatch is not installed/);
    }
    const staged = core.compute.list(sessionId).map((j) => [j.target, core.compute.folders(j.id).local]);
    const ids = core.compute.list(sessionId).map((j) => j.id);
    expect(staged).toEqual([
      ['relative', path.join(home, 'scratch/jobs', ids[0]!)],
      ['tilde', path.join(home, 'jobs', ids[1]!)],
    ]);
    for (const [, dir] of staged) expect(fs.existsSync(path.join(dir!, 'job.sh'))).toBe(true);
    expect(fs.existsSync(path.join(process.cwd(), '~'))).toBe(false);
  });
});

describe('a target command that never answers', () => {
  it('is stopped at its time limit and said to be slow or hung, not reported as an exit code', async () => {
    const started = Date.now();
    await expect(localTransport(process.env).exec(['sleep', '30'], { timeoutMs: 300 })).rejects.toThrow(
      'sleep did not answer within 1 s and was stopped; the target is slow or hung: try again later, or check it from a terminal.',
    );
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
