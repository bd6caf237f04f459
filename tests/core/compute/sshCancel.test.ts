import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputeTargetConfig } from '../../../src-preload/contract/compute';
import { pidAlive, waitFor } from '../../support/daemons';
import { sshUnavailableReason, startSshServer, type SshServer } from '../../support/sshServer';
import { callTool, computeWorld, harvested, sessionWith, submitted, waitForJob } from './support';

/**
 * An SSH host against a real OpenSSH server on loopback: cancel of a job that ignores TERM,
 * a cancel that arrives after the job already ended, and a work root written as "~/…".
 */

const skip = sshUnavailableReason();
if (skip) console.warn(skip);

describe.skipIf(skip !== null)('SSH host jobs: cancel and work root', () => {
  let sshd: SshServer;
  let world: ReturnType<typeof computeWorld>;
  // Under the ssh user's home (this test process's user), removed afterwards.
  const tildeRoot = `.o4s-test-${randomBytes(4).toString('hex')}`;

  beforeAll(async () => {
    sshd = await startSshServer();
    const target: ComputeTargetConfig = { name: 'gpu-box', kind: 'ssh', host: sshd.host, port: sshd.port, user: sshd.user, identityFile: sshd.identityFile, knownHostsFile: sshd.knownHostsFile, workRoot: `${sshd.dir}/work` };
    world = computeWorld([target, { ...target, name: 'tilde-root', workRoot: `~/${tildeRoot}` }]);
  }, 60_000);

  afterAll(async () => {
    await world?.cleanup();
    await sshd?.stop();
    fs.rmSync(path.join(os.homedir(), tildeRoot), { recursive: true, force: true });
  }, 60_000);

  it('a work root "~/jobs" is under the remote home, not a folder named "~"', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'tilde-root', language: 'shell', script: 'echo ok > o.txt', outputs: ['o.txt'] }));
    expect(job.remoteDir).toBe(path.join(os.homedir(), tildeRoot, job.id));
    expect(await waitForJob(core, job.id, harvested, 'harvested')).toMatchObject({ state: 'completed', exitCode: 0 });
  }, 60_000);

  it('a job that ignores TERM is not reported cancelled while its processes run, and is killed after the grace period', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const script = "trap '' TERM\nsleep 300 &\necho $! > child.pid\nwait";
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'gpu-box', language: 'shell', script }));
    await waitForJob(core, job.id, (j) => j.state === 'running', 'running');
    const childPid = path.join(job.remoteDir!, 'child.pid');
    await waitFor('the job to start its child', () => fs.existsSync(childPid) && fs.readFileSync(childPid, 'utf8').trim() !== '');
    const child = Number(fs.readFileSync(childPid, 'utf8'));
    expect((await callTool(core, sessionId, 'compute_cancel', { job_id: job.id })).status).toBe('ok');
    // The wrapper died of TERM at once, but the job’s child ignores it: still running.
    const after = await core.compute.refresh(job.id);
    expect(pidAlive(child)).toBe(true);
    expect(after).toMatchObject({ state: 'running', reason: 'cancel requested', harvested: false });
    const done = await waitForJob(core, job.id, harvested, 'harvested', 60_000);
    expect(done.state).toBe('cancelled');
    // Reported cancelled only once nothing of it runs.
    expect(pidAlive(child)).toBe(false);
  }, 90_000);

  it('a cancel that arrives after the job wrote its exit record leaves it completed, with its outputs', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'gpu-box', language: 'shell', script: 'echo done > o.txt', outputs: ['o.txt'] }));
    // The job ends before anyone polled it: the app still believes it pending or running.
    await waitFor('the job to write its exit record', () => fs.existsSync(path.join(job.remoteDir!, '.openai4s', 'exit_code')), 30_000);
    expect(core.compute.view(job.id).harvested).toBe(false);
    await callTool(core, sessionId, 'compute_cancel', { job_id: job.id });
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done).toMatchObject({ state: 'completed', exitCode: 0, reason: null });
    expect(done.outputsHarvested.map((o) => o.path)).toEqual(['o.txt']);
  }, 60_000);
});
