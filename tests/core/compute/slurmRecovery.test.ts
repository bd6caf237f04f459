import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { slurmUnavailableReason, startSlurmCluster, type SlurmCluster } from '../../support/slurmCluster';
import { pidAlive, waitFor } from '../../support/daemons';
import { callTool, computeWorld, harvested, sessionWith, submitted, waitForJob } from './support';

/**
 * A real single-node Slurm cluster (tests/support/slurmCluster.ts) in the situations a
 * demanding user meets: a job folder whose path holds "%" (sbatch's pattern character), and
 * an app killed in the middle of a harvest, then started again.
 */

const skip = slurmUnavailableReason();
if (skip) console.warn(skip);

describe.skipIf(skip !== null)('Slurm jobs in hard conditions', () => {
  let cluster: SlurmCluster;
  let world: ReturnType<typeof computeWorld>;
  let percentRoot: string;

  beforeAll(async () => {
    cluster = await startSlurmCluster();
    percentRoot = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s 100%x-'));
    world = computeWorld(
      [
        { name: 'local-slurm', kind: 'slurm', partition: cluster.partition, defaults: { memoryMb: 200 } },
        { name: 'percent-root', kind: 'slurm', workRoot: percentRoot, defaults: { memoryMb: 200 } },
      ],
      cluster.env,
    );
  }, 90_000);

  afterAll(async () => {
    await world?.cleanup();
    await cluster?.stop();
    if (percentRoot) fs.rmSync(percentRoot, { recursive: true, force: true });
  }, 60_000);

  it('runs a job whose folder path holds "%" and keeps its stdout (sbatch would expand %x in the log path)', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'percent-root', language: 'shell', script: 'echo to-stdout\necho x > o.txt', outputs: ['o.txt'] }));
    expect(job.remoteDir!.startsWith(percentRoot)).toBe(true);
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done, `reason: ${done.reason}`).toMatchObject({ state: 'completed', exitCode: 0 });
    expect(Buffer.from(core.provenance.artifacts.read(done.logs.stdout!.versionId).base64, 'base64').toString()).toBe('to-stdout\n');
  });

  it('a harvest claimed by a process that was killed is taken over at the next start; a live claimant’s is not', async () => {
    const first = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(first);
    const job = submitted(await callTool(first, sessionId, 'compute_submit', { target: 'local-slurm', language: 'shell', script: 'echo kept > o.txt', outputs: ['o.txt'] }));
    await first.close();
    await waitFor('the job to end', () => fs.existsSync(path.join(job.remoteDir!, '.openai4s', 'exit_code')), 60_000);
    // Another app process claims the harvest, as the service does, then is killed before it records the harvest.
    const claimant = spawn('sleep', ['600'], { stdio: 'ignore' });
    const claim = { state: 'completed', harvestClaim: 'poller_other', claimPid: claimant.pid!, claimHost: os.hostname() };
    const second = world.open({ unattended: 'allow' });
    expect(second.ledger.compute.claimHarvest(job.id, claim, new Date(Date.now() - 60_000).toISOString())).toBe(true);
    // While the claimant lives, its claim holds: this process waits for its harvest.
    expect(await second.compute.refresh(job.id)).toMatchObject({ state: 'completed', harvested: false });
    claimant.kill('SIGKILL');
    await waitFor('the claimant to die', () => !pidAlive(claimant.pid!));
    await second.close();
    const third = world.open({ unattended: 'allow', resume: true });
    const view = await third.compute.refresh(job.id);
    expect(view).toMatchObject({ state: 'completed', exitCode: 0, harvested: true });
    expect(Buffer.from(third.provenance.artifacts.read(view.outputsHarvested[0]!.versionId).base64, 'base64').toString()).toBe('kept\n');
  });
});
