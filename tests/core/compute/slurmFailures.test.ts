import { describe, expect, it } from 'vitest';
import { SlurmScheduler } from '../../../src-main/core/compute/slurm';
import type { CommandResult, Transport } from '../../../src-main/core/compute/transport';

/**
 * What Slurm's commands answer when they fail, read through a transport that answers as a
 * login node would (the messages are Slurm 22.05's wording). Each failure is one line naming
 * the command, where, and the cluster's own reason; nothing is taken for a job id or a state.
 */

function node(answers: Record<string, CommandResult>): Transport & { ran: string[][] } {
  const ran: string[][] = [];
  return {
    ran,
    where: 'login.hpc.example.org',
    remote: true,
    exec: async (argv) => {
      ran.push(argv);
      return answers[argv[0]!] ?? { code: 1, stdout: '', stderr: `${argv[0]}: not expected here` };
    },
    upload: async () => undefined,
    download: async () => undefined,
  };
}

const request = { jobId: 'job_aaaaaaaaaaaaaaaa', dir: '/scratch/u/job', resources: { partition: 'gpu-big' } };

describe('Slurm failures', () => {
  it('sbatch refusing the job (an unknown partition) is an error with the cluster\'s reason', async () => {
    const t = node({ sbatch: { code: 1, stdout: '', stderr: 'sbatch: error: invalid partition specified: gpu-big\nsbatch: error: Batch job submission failed: Invalid partition name specified\n' } });
    await expect(new SlurmScheduler(t).submit(request)).rejects.toThrow('sbatch failed on login.hpc.example.org: sbatch: error: Batch job submission failed: Invalid partition name specified.');
  });

  it('sbatch missing on the node says to install the client', async () => {
    const t = node({ sbatch: { code: 127, stdout: '', stderr: 'bash: line 1: sbatch: command not found' } });
    await expect(new SlurmScheduler(t).submit(request)).rejects.toThrow(/sbatch failed on login\.hpc\.example\.org: bash: line 1: sbatch: command not found \(is Slurm's client installed on login\.hpc\.example\.org\? its commands must be on PATH\)\./);
  });

  it('sbatch exiting 0 with something other than a job id (a site wrapper\'s banner) is not taken as submitted', async () => {
    const t = node({ sbatch: { code: 0, stdout: 'Welcome to HPC! Your allocation is 90% used.\n', stderr: '' } });
    await expect(new SlurmScheduler(t).submit(request)).rejects.toThrow('sbatch on login.hpc.example.org answered "Welcome to HPC! Your allocation is 90% used.", not a job id.');
    // A banner before the id is fine: the id is the last line.
    const ok = node({ sbatch: { code: 0, stdout: 'Welcome!\n4242;cluster1\n', stderr: '' } });
    await expect(new SlurmScheduler(ok).submit(request)).resolves.toBe('4242');
  });

  it('a controller that cannot be reached fails the query (a poll error), never a guessed state', async () => {
    const t = node({ scontrol: { code: 1, stdout: '', stderr: 'slurm_load_jobs error: Unable to contact slurm controller (connect failure)' } });
    await expect(new SlurmScheduler(t).query('4242', '/scratch/u/job')).rejects.toThrow('scontrol show job failed on login.hpc.example.org: slurm_load_jobs error: Unable to contact slurm controller (connect failure).');
    expect(t.ran.map((a) => a[0])).toEqual(['scontrol']);
  });

  it('a job Slurm forgot, with accounting off and no exit record, is failed with that reason', async () => {
    const t = node({
      scontrol: { code: 1, stdout: '', stderr: 'slurm_load_jobs error: Invalid job id specified' },
      sacct: { code: 1, stdout: '', stderr: 'sacct: error: Slurm accounting storage is disabled' },
      cat: { code: 1, stdout: '', stderr: 'cat: /scratch/u/job/.openai4s/exit_code: No such file or directory' },
    });
    await expect(new SlurmScheduler(t).query('4242', '/scratch/u/job')).resolves.toMatchObject({
      state: 'failed',
      exitCode: null,
      reason: 'Slurm no longer knows job 4242 and sacct is unavailable (sacct: error: Slurm accounting storage is disabled); the job left no exit record, so it did not finish normally',
    });
  });
});
