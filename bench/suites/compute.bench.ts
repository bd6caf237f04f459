import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import type { ComputeTargetConfig } from '../../src-preload/contract/compute';
import { createCore, type Core } from '../../src-main/core/core';
import { slurmUnavailableReason, startSlurmCluster, type SlurmCluster } from '../../tests/support/slurmCluster';
import { sshUnavailableReason, startSshServer, type SshServer } from '../../tests/support/sshServer';
import { waitFor } from '../../tests/support/daemons';
import type { BenchRow, BenchSuite } from '../types';

/**
 * Compute targets (issue 23) on loopback: how long a submitted job takes to be seen
 * running (the app's submit: staging, upload, sbatch or the SSH launch, then polling the
 * target), and how long harvesting a 100 MB output takes once the target reports the job
 * finished (the row names the path the bytes travel). Needs Slurm (as root) and OpenSSH;
 * a target whose tools are missing is left out with the reason.
 */

const RUNS = 3;
const BIG = 100 * 1024 * 1024;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function submitToRunning(core: Core, sessionId: string, target: string): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const job = await core.compute.submit({ sessionId, runId: null, target, language: 'shell', script: 'sleep 30' });
    let state = job.state;
    while (state !== 'running') {
      state = (await core.compute.refresh(job.id)).state;
      if (state !== 'running' && state !== 'pending') throw new Error(`job ${job.id} on ${target} ended ${state} before it was seen running`);
    }
    times.push(performance.now() - started);
    await core.compute.cancel(job.id);
  }
  return median(times);
}

/** Submits a job writing 100 MB, waits for the target to finish it (without harvesting), then times the harvest. */
async function harvestBig(core: Core, sessionId: string, target: string, finished: (job: { schedulerJobId: string; remoteDir: string }) => boolean): Promise<number> {
  const job = await core.compute.submit({ sessionId, runId: null, target, language: 'shell', script: `head -c ${BIG} /dev/urandom > big.bin`, outputs: ['big.bin'] });
  const ids = { schedulerJobId: job.schedulerJobId!, remoteDir: job.remoteDir! };
  await waitFor(`the 100 MB job on ${target} to finish`, () => finished(ids), 120_000, 100);
  const started = performance.now();
  const done = await core.compute.refresh(job.id);
  const elapsed = performance.now() - started;
  if (!done.harvested || done.outputsHarvested[0]?.size !== BIG) throw new Error(`the 100 MB output of ${job.id} was not harvested: ${done.state} ${done.reason ?? ''}`);
  return elapsed;
}

const suite: BenchSuite = {
  name: 'compute',
  async run() {
    const rows: BenchRow[] = [];
    const slurmSkip = slurmUnavailableReason();
    const sshSkip = sshUnavailableReason();
    if (slurmSkip) console.warn(slurmSkip);
    if (sshSkip) console.warn(sshSkip);
    let cluster: SlurmCluster | null = null;
    let sshd: SshServer | null = null;
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bench-compute-'));
    let core: Core | null = null;
    try {
      if (!slurmSkip) cluster = await startSlurmCluster();
      if (!sshSkip) sshd = await startSshServer(cluster ? { setEnv: cluster.env } : {});
      const targets: ComputeTargetConfig[] = [];
      if (cluster) targets.push({ name: 'local-slurm', kind: 'slurm', defaults: { memoryMb: 200 } });
      if (sshd) {
        const ssh = { host: sshd.host, port: sshd.port, user: sshd.user, identityFile: sshd.identityFile, knownHostsFile: sshd.knownHostsFile, workRoot: path.join(sshd.dir, 'work') };
        targets.push({ name: 'ssh-host', kind: 'ssh', ...ssh });
        if (cluster) targets.push({ name: 'login-node', kind: 'slurm', ...ssh, defaults: { memoryMb: 200 } });
      }
      fs.mkdirSync(path.join(dataDir, 'compute'), { recursive: true });
      fs.writeFileSync(path.join(dataDir, 'compute', 'targets.json'), JSON.stringify({ targets }));
      // Polling by hand: the background poller must not harvest before the timed call.
      core = createCore({ env: { ...process.env, ...(cluster?.env ?? {}), OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_COMPUTE_POLL_MS: '3600000' } });
      const sessionId = core.ledger.createSession('compute bench').id;
      const slurmDone = (j: { schedulerJobId: string }) =>
        /JobState=COMPLETED/.test(execFileSync('scontrol', ['show', 'job', '-o', j.schedulerJobId], { env: { ...process.env, ...cluster!.env }, encoding: 'utf8' }));
      const wrapperDone = (j: { remoteDir: string }) => fs.existsSync(path.join(j.remoteDir, '.openai4s', 'exit_code'));
      const paths: Record<string, { path: string; finished: (j: { schedulerJobId: string; remoteDir: string }) => boolean }> = {
        'local-slurm': { path: 'Slurm on this machine: job folder read in place -> artifact store', finished: slurmDone },
        'ssh-host': { path: 'SSH host 127.0.0.1: tar over ssh -> harvest folder -> artifact store', finished: wrapperDone },
        'login-node': { path: 'Slurm via login node 127.0.0.1: tar over ssh -> harvest folder -> artifact store', finished: slurmDone },
      };
      for (const t of targets) {
        rows.push({ metric: `submit to running, ${t.name} (${t.kind === 'ssh' ? 'SSH host 127.0.0.1' : t.host ? 'Slurm via login node 127.0.0.1' : 'Slurm on this machine'}), median of ${RUNS}`, value: await submitToRunning(core, sessionId, t.name), unit: 'ms' });
      }
      for (const t of targets) {
        rows.push({ metric: `harvest of a 100 MB output (${paths[t.name]!.path})`, value: await harvestBig(core, sessionId, t.name, paths[t.name]!.finished), unit: 'ms' });
      }
      return rows;
    } finally {
      await core?.close();
      await sshd?.stop();
      await cluster?.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

export default suite;
