import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Core } from '../../../src-main/core/core';
import { wrapperScript } from '../../../src-main/core/compute/jobFolder';
import { ComputeService } from '../../../src-main/core/compute/service';
import { SshHostScheduler } from '../../../src-main/core/compute/sshHost';
import { sessionWorkspace } from '../../../src-main/core/workspace/sessionWorkspace';
import { pidAlive, waitFor } from '../../support/daemons';
import { sshUnavailableReason } from '../../support/sshServer';
import { crashDuringSubmit, harvested, useSshWorld, waitForJob } from './support';

/**
 * An SSH job whose launch recorded no process id (the app died between starting the
 * wrapper and writing its pid) never waits silently. Its wrapper still running is found
 * on the host and followed by its pid; its wrapper gone without an exit record ends the
 * job failed at once, saying so and where its log is; a host that cannot tell is waited
 * for a bounded time, with the reason shown meanwhile, then the job fails saying why.
 */

const skip = sshUnavailableReason();
if (skip) console.warn(skip);

describe.skipIf(skip !== null)('an SSH job whose pid was never recorded', () => {
  const ssh = useSshWorld();

  const meta = (jobId: string, file: string) => path.join(ssh.sshd.dir, 'work', jobId, '.openai4s', file);
  /** The row the crash left (the newest one without a recorded submission). */
  const crashedRow = (core: Core) => core.ledger.compute.list().find((j) => core.compute.view(j.id).schedulerJobId === null && !core.compute.view(j.id).harvested)!;

  it('fails at once, naming what happened and where the log is, when the wrapper is gone without a pid or an exit record', async () => {
    await crashDuringSubmit(ssh.world.dataDir, 'gpu-box', 'after-submit', {});
    const core = ssh.world.open();
    const row = crashedRow(core);
    await waitFor('the job to end on the host', () => fs.existsSync(meta(row.id, 'exit_code')), 30_000);
    // What a launch cut before its pid, and a wrapper killed before its exit record, leave.
    for (const f of ['pid', 'exit_code', 'ended_at']) fs.rmSync(meta(row.id, f));
    const done = await waitForJob(core, row.id, harvested, 'harvested', 120_000);
    expect(done).toMatchObject({ state: 'failed', exitCode: null, schedulerJobId: 'unrecorded' });
    expect(done.reason).toContain('never reported its process id');
    expect(done.reason).toContain(`${path.join(ssh.sshd.dir, 'work', row.id)}/.openai4s/stderr.log`);
    // Its logs came back as evidence all the same.
    expect(Buffer.from(core.provenance.artifacts.read(done.logs.stdout!.versionId).base64, 'base64').toString()).toBe('ran\n');
    await core.close();
  }, 180_000);

  it('finds a wrapper still running without a recorded pid, records its pid and follows it (cancel reaches it)', async () => {
    await crashDuringSubmit(ssh.world.dataDir, 'gpu-box', 'after-submit', {}, 'sleep 300');
    const core = ssh.world.open();
    const row = crashedRow(core);
    await waitFor('the wrapper to start', () => fs.existsSync(meta(row.id, 'started_at')) && fs.existsSync(meta(row.id, 'pid')), 30_000);
    const wrapper = fs.readFileSync(meta(row.id, 'pid'), 'utf8').trim();
    fs.rmSync(meta(row.id, 'pid'));
    try {
      const running = await waitForJob(core, row.id, (j) => j.state === 'running', 'running', 120_000);
      expect(running.schedulerJobId).toBe(wrapper);
      expect(fs.readFileSync(meta(row.id, 'pid'), 'utf8').trim()).toBe(wrapper);
      await core.compute.cancel(row.id);
      expect(await waitForJob(core, row.id, harvested, 'harvested', 120_000)).toMatchObject({ state: 'cancelled' });
      await waitFor('the wrapper to be stopped', () => !pidAlive(Number(wrapper)), 30_000);
    } finally {
      if (pidAlive(Number(wrapper))) process.kill(-Number(wrapper), 'SIGKILL');
    }
    await core.close();
  }, 180_000);

  it('on a host that cannot say whether the wrapper runs: shows why it waits, then fails after the bounded wait with the log’s path', async () => {
    await crashDuringSubmit(ssh.world.dataDir, 'gpu-box', 'after-submit', {});
    const core = ssh.world.open();
    const row = crashedRow(core);
    await waitFor('the job to end on the host', () => fs.existsSync(meta(row.id, 'exit_code')), 30_000);
    for (const f of ['pid', 'exit_code', 'ended_at']) fs.rmSync(meta(row.id, f));
    const service = (pidWaitMs: number) =>
      new ComputeService({ dataDir: ssh.world.dataDir, processEnv: process.env, ledger: () => core.ledger, artifacts: () => core.provenance.artifacts, workspaceFor: (s) => sessionWorkspace(ssh.world.dataDir, s), pidWaitMs });
    // A host without /proc (macOS, BSD) cannot list the job folder's processes: what its find answers.
    const find = Object.getOwnPropertyDescriptor(SshHostScheduler.prototype, 'find')!;
    SshHostScheduler.prototype.find = async function (request) {
      const found = await (find.value as SshHostScheduler['find']).call(this, request);
      return 'found' in found && found.found === 'unrecorded' ? { unsure: 'the host has no process table to look in' } : found;
    };
    try {
      const patient = service(60 * 60_000);
      const waiting = await patient.refresh(row.id);
      expect(waiting).toMatchObject({ state: 'pending', harvested: false });
      expect(waiting.reason).toContain('the host has no process table to look in');
      expect(waiting.reason).toContain(`its log is ${path.join(ssh.sshd.dir, 'work', row.id)}/.openai4s/stderr.log`);
      expect(waiting.reason).toContain('gives up 60 min after submission');
      // Asked again, nothing new is written while nothing changed.
      const before = core.ledger.compute.events(row.id).length;
      await patient.refresh(row.id);
      expect(core.ledger.compute.events(row.id)).toHaveLength(before);
      await patient.close();

      const bounded = service(1);
      const ended = await bounded.refresh(row.id);
      expect(ended).toMatchObject({ state: 'failed', harvested: true });
      expect(ended.reason).toContain('did not report its process id within');
      expect(ended.reason).toContain(`Its log is ${path.join(ssh.sshd.dir, 'work', row.id)}/.openai4s/stderr.log`);
      expect(ended.reason).toContain('check there whether it still runs');
      await bounded.close();
    } finally {
      Object.defineProperty(SshHostScheduler.prototype, 'find', find);
    }
    await core.close();
  }, 180_000);
});

describe('the wrapper on a plain SSH host', () => {
  it('records its own pid, so a launch cut before writing it still leaves the job one to follow', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-wrapper-'));
    try {
      fs.mkdirSync(path.join(dir, '.openai4s'));
      fs.writeFileSync(path.join(dir, 'job.sh'), 'true\n');
      fs.writeFileSync(path.join(dir, '.openai4s/run.sh'), wrapperScript({ name: 'box', kind: 'ssh', host: 'h' }, 'shell', 'job.sh', {}));
      const child = spawn('bash', ['.openai4s/run.sh'], { cwd: dir, stdio: 'ignore' });
      const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
      expect(code).toBe(0);
      expect(fs.readFileSync(path.join(dir, '.openai4s/pid'), 'utf8').trim()).toBe(String(child.pid));
      // A Slurm job's wrapper leaves the pid to Slurm.
      expect(wrapperScript({ name: 'c', kind: 'slurm' }, 'shell', 'job.sh', {})).not.toContain('/pid');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
