import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobProducer } from '../../../src-preload/contract/artifacts';
import type { ComputeJobView, ComputeTargetConfig } from '../../../src-preload/contract/compute';
import { freePort, pidAlive, waitFor } from '../../support/daemons';
import { sshUnavailableReason, startSshServer, type SshServer } from '../../support/sshServer';
import { callTool, computeWorld, harvested, recordingApprovals, sessionWith, submitted, waitForJob } from './support';

/**
 * SSH targets against a real OpenSSH server on loopback (tests/support/sshServer.ts):
 * public-key login with a generated key, the host key checked against a generated
 * known_hosts. The job runs detached on the "host" and is read back from its folder.
 */

const skip = sshUnavailableReason();
if (skip) console.warn(skip);

const SECRET = 'sk-test-compute-secret-0123456789';

describe.skipIf(skip !== null)('SSH compute target', () => {
  let sshd: SshServer;
  let world: ReturnType<typeof computeWorld>;
  let target: ComputeTargetConfig;

  beforeAll(async () => {
    sshd = await startSshServer();
    target = { name: 'gpu-box', kind: 'ssh', host: sshd.host, port: sshd.port, user: sshd.user, identityFile: sshd.identityFile, knownHostsFile: sshd.knownHostsFile, workRoot: `${sshd.dir}/work` };
    const strangerKnownHosts = path.join(sshd.dir, 'empty_known_hosts');
    fs.writeFileSync(strangerKnownHosts, '');
    const closedPort = await freePort();
    world = computeWorld(
      [
        target,
        { ...target, name: 'unknown-host-key', knownHostsFile: strangerKnownHosts },
        { ...target, name: 'nobody-listening', port: closedPort },
      ],
      // A provider key in the app's environment: it must never reach the job.
      { OPENAI4S_OPENAI_API_KEY: SECRET },
    );
  }, 60_000);

  afterAll(async () => {
    await world?.cleanup();
    await sshd?.stop();
  }, 60_000);

  const text = (core: ReturnType<typeof world.open>, versionId: string) => Buffer.from(core.provenance.artifacts.read(versionId).base64, 'base64').toString();

  it('runs a script on the host with a staged input and harvests its output with the job as provenance', async () => {
    const approvals = recordingApprovals();
    const core = world.open({ approvals });
    const sessionId = sessionWith(core, { 'seq.fa': '>s1\nACGT\n' });
    const job = submitted(
      await callTool(core, sessionId, 'compute_submit', {
        target: 'gpu-box',
        language: 'shell',
        script: 'grep -v ">" seq.fa | rev > out/reversed.txt || exit 1\nenv > out/env.txt',
        inputs: [{ workspace: 'seq.fa' }],
        outputs: ['out/reversed.txt', 'out/env.txt'],
      }),
    );
    expect(approvals.questions[0]!.detail).toContain(`Target: gpu-box (ssh on ${sshd.user}@127.0.0.1)`);
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    // The script forgot `mkdir out`: the redirect failed, and the job says so.
    expect(done).toMatchObject({ state: 'failed', exitCode: 1 });
    expect(done.missingOutputs).toEqual(['out/reversed.txt', 'out/env.txt']);
    expect(text(core, done.logs.stderr!.versionId)).toMatch(/out\/reversed.txt: No such file or directory/);

    const fixed = submitted(
      await callTool(core, sessionId, 'compute_submit', {
        target: 'gpu-box',
        language: 'shell',
        script: 'mkdir -p out\ngrep -v ">" seq.fa | rev > out/reversed.txt\nenv > out/env.txt',
        inputs: [{ workspace: 'seq.fa' }],
        outputs: ['out/reversed.txt', 'out/env.txt'],
      }),
    );
    const ok = await waitForJob(core, fixed.id, harvested, 'harvested');
    expect(ok).toMatchObject({ state: 'completed', exitCode: 0, node: os.hostname(), missingOutputs: [] });
    const reversed = ok.outputsHarvested.find((o) => o.path === 'out/reversed.txt')!;
    expect(text(core, reversed.versionId)).toBe('TGCA\n');
    expect(core.provenance.artifacts.version(reversed.versionId).provenance.producer).toMatchObject({
      kind: 'job',
      target: 'gpu-box',
      targetKind: 'ssh',
      schedulerJobId: fixed.schedulerJobId,
      exitCode: 0,
      state: 'completed',
      inputs: [{ path: 'seq.fa', sha256: fixed.inputs[0]!.sha256 }],
    } satisfies Partial<JobProducer>);
    // The job's environment is the host's, not the app's: no provider key travels with it.
    expect(text(core, ok.outputsHarvested.find((o) => o.path === 'out/env.txt')!.versionId)).not.toContain(SECRET);
  });

  it('keeps a non-zero exit code', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'gpu-box', language: 'python', script: 'import sys\nsys.exit(7)' }));
    expect(await waitForJob(core, job.id, harvested, 'harvested')).toMatchObject({ state: 'failed', exitCode: 7 });
  });

  it('fails a job that did not write a promised output', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'gpu-box', language: 'shell', script: 'true', outputs: ['result.csv'] }));
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done).toMatchObject({ state: 'failed', exitCode: 0, missingOutputs: ['result.csv'] });
    expect(done.reason).toBe('declared output "result.csv" was not written');
  });

  it('cancels a running job (its whole process group)', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'gpu-box', language: 'shell', script: 'sleep 300 &\necho $! > child.pid\nwait' }));
    await waitForJob(core, job.id, (j) => j.state === 'running', 'running');
    const childPid = path.join(job.remoteDir!, 'child.pid');
    await waitFor('the job to start its child', () => fs.existsSync(childPid) && fs.readFileSync(childPid, 'utf8').trim() !== '');
    const child = Number(fs.readFileSync(childPid, 'utf8'));
    expect(pidAlive(child)).toBe(true);
    expect((await callTool(core, sessionId, 'compute_cancel', { job_id: job.id })).status).toBe('ok');
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done.state).toBe('cancelled');
    // The script's own child went with it: cancel signals the job's process group.
    await waitFor('the child to exit', () => !pidAlive(child), 10_000);
  });

  it('stops a job at its time limit and reports timeout', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'gpu-box', language: 'shell', script: 'sleep 600', time_limit_min: 1 }));
    const done = await waitForJob(core, job.id, harvested, 'harvested', 120_000);
    expect(done.state).toBe('timeout');
    expect(done.elapsedSeconds).toBeGreaterThanOrEqual(60);
  }, 130_000);

  it('harvests at the next start a job that finished while the app was closed', async () => {
    const first = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(first);
    const job = submitted(await callTool(first, sessionId, 'compute_submit', { target: 'gpu-box', language: 'shell', script: 'sleep 1\necho later > later.txt', outputs: ['later.txt'] }));
    await first.close();
    await waitFor('the job to write its exit record', () => fs.existsSync(path.join(job.remoteDir!, '.openai4s', 'exit_code')), 30_000);
    const second = world.open({ unattended: 'allow', resume: true });
    let view: ComputeJobView = second.compute.view(job.id);
    await waitFor('the resumed poller to harvest the job', () => (view = second.compute.view(job.id)).harvested || `state ${view.state}`, 30_000);
    expect(view).toMatchObject({ state: 'completed', exitCode: 0 });
    expect(text(second, view.outputsHarvested[0]!.versionId)).toBe('later\n');
  });

  it('is reachable from a Python cell as host.compute.*', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core, { 'x.txt': 'from the workspace' });
    const cell = await core.kernels.execute(
      sessionId,
      'python',
      [
        "job = host.compute.submit(target='gpu-box', language='shell', script='cat x.txt > y.txt', inputs=[{'workspace': 'x.txt'}], outputs=['y.txt'])['output']",
        // A host call answers {text, output}: output is the job view.
        "done = host.compute.result(job_id=job['id'], wait_s=60)['output']",
        "print(done['state'], done['exitCode'], [o['path'] for o in done['outputsHarvested']])",
      ].join('\n'),
    );
    expect(cell.error ?? null).toBeNull();
    expect(cell.stdout.trim()).toBe("completed 0 ['y.txt']");
    const [job] = core.compute.list(sessionId);
    expect(text(core, job!.outputsHarvested[0]!.versionId)).toBe('from the workspace');
  }, 90_000);

  it('refuses a submission headless without the unattended policy', async () => {
    const core = world.open();
    const sessionId = sessionWith(core);
    const denied = await callTool(core, sessionId, 'compute_submit', { target: 'gpu-box', language: 'shell', script: 'touch should-not-exist' });
    expect(denied.status).toBe('denied');
    expect(core.compute.list(sessionId)).toEqual([]);
  });

  it('fails with a clear reason when the host cannot be reached or its key is unknown, never pretending a job ran', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const down = await callTool(core, sessionId, 'compute_submit', { target: 'nobody-listening', language: 'shell', script: 'true' });
    expect(down.status).toBe('error');
    expect(down.text).toMatch(/Cannot reach target "nobody-listening" \(.*127\.0\.0\.1:\d+\) over SSH: .*Connection refused/);
    const stranger = await callTool(core, sessionId, 'compute_submit', { target: 'unknown-host-key', language: 'shell', script: 'true' });
    expect(stranger.status).toBe('error');
    expect(stranger.text).toMatch(/Host key verification failed.*add the host's key to .*empty_known_hosts.*never turns host key checking off/);
    // Both are in the ledger as failed submissions with their reason, and no job folder was made remotely.
    const jobs = core.compute.list(sessionId);
    expect(jobs.map((j) => [j.target, j.state, j.harvested])).toEqual([
      ['unknown-host-key', 'failed', true],
      ['nobody-listening', 'failed', true],
    ]);
    expect(fs.existsSync(path.join(sshd.dir, 'work', jobs[0]!.id))).toBe(false);
  });

  it('keeps key material out of targets, and the private key out of the ledger', async () => {
    const core = world.open({ unattended: 'allow' });
    expect(() => core.compute.targets.save({ name: 'bad', kind: 'ssh', host: 'h', password: 'hunter2' })).toThrow(/must not hold a key, password or token/);
    expect(() => core.compute.targets.save({ name: 'bad', kind: 'ssh', host: 'h', identityFile: '-----BEGIN OPENSSH PRIVATE KEY-----' })).toThrow(/must not hold a key/);
    const key = fs.readFileSync(sshd.identityFile, 'utf8').split('\n')[1]!;
    // Every job of this file is in the ledger (with the target's identity file path): not the key.
    const files = [core.ledger.file, `${core.ledger.file}-wal`].filter((f) => fs.existsSync(f));
    for (const f of files) expect(fs.readFileSync(f).toString('latin1')).not.toContain(key);
    expect(fs.readFileSync(core.ledger.file).toString('latin1') + (fs.existsSync(`${core.ledger.file}-wal`) ? fs.readFileSync(`${core.ledger.file}-wal`).toString('latin1') : '')).toContain(sshd.identityFile);
  });
});
