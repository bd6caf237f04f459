import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SlurmScheduler } from '../../../src-main/core/compute/slurm';
import { localTransport, type CommandResult, type Transport } from '../../../src-main/core/compute/transport';
import { slurmUnavailableReason, startSlurmCluster, type SlurmCluster } from '../../support/slurmCluster';

/**
 * Looking up an interrupted Slurm submission: the job is declared never taken only when
 * every source answered that it does not know it. A job-id record that exists but cannot be
 * read (a dropped connection, a file system error) is a failure to ask, not a "no".
 */

const skip = slurmUnavailableReason();
if (skip) console.warn(skip);

describe.skipIf(skip !== null)('SlurmScheduler.find', () => {
  let cluster: SlurmCluster;
  let dir: string;
  beforeAll(async () => {
    cluster = await startSlurmCluster();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-find-'));
    fs.mkdirSync(path.join(dir, '.openai4s'));
  }, 90_000);
  afterAll(async () => {
    fs.rmSync(dir, { recursive: true, force: true });
    await cluster?.stop();
  }, 60_000);

  const scheduler = () => new SlurmScheduler(localTransport({ ...process.env, ...cluster.env }));
  const since = new Date().toISOString();

  it('answers absent for a job no source knows and whose folder holds no id record', async () => {
    expect(await scheduler().find({ jobId: 'job_eeeeeeeeeeeeeeee', dir, since })).toEqual({ absent: expect.stringContaining('knows no job named o4s-job_eeeeeeeeeeeeeeee') });
  });

  it('throws, instead of answering absent, when the id record is there but cannot be read', async () => {
    // A folder where the record should be: cat fails as it would on an I/O or connection error.
    fs.mkdirSync(path.join(dir, '.openai4s', 'scheduler_job_id'));
    await expect(scheduler().find({ jobId: 'job_ffffffffffffffff', dir, since })).rejects.toThrow(/scheduler_job_id/);
  });
});

describe('SlurmScheduler.find through accounting', () => {
  it('finds a job the controller forgot in sacct on a cluster whose clock is behind UTC (sacct reads --starttime as local time)', async () => {
    const submittedAt = Date.parse('2026-03-02T06:50:12Z');
    // A login node in UTC-5: sacct lists the job only if the start bound, read in its zone, is not after the submission.
    const t: Transport = {
      where: 'login.hpc.example.org',
      remote: true,
      exec: async (argv): Promise<CommandResult> => {
        if (argv[0] === 'squeue') return { code: 0, stdout: '', stderr: '' };
        if (argv[0] === 'sacct') {
          const local = argv.find((a) => a.startsWith('--starttime='))!.slice('--starttime='.length);
          const bound = Date.parse(`${local}-05:00`);
          return { code: 0, stdout: bound <= submittedAt ? '4242\n' : '', stderr: '' };
        }
        return { code: 0, stdout: '', stderr: '' };
      },
      upload: async () => undefined,
      download: async () => undefined,
    };
    expect(await new SlurmScheduler(t).find({ jobId: 'job_aaaaaaaaaaaaaaaa', dir: null, since: '2026-03-02T06:50:11.500Z' })).toEqual({ found: '4242' });
  });
});
