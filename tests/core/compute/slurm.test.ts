import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { JobProducer } from '../../../src-preload/contract/artifacts';
import type { ComputeJobView } from '../../../src-preload/contract/compute';
import { slurmUnavailableReason, startSlurmCluster, type SlurmCluster } from '../../support/slurmCluster';
import { sshUnavailableReason, startSshServer, type SshServer } from '../../support/sshServer';
import { waitFor } from '../../support/daemons';
import { callTool, computeWorld, harvested, recordingApprovals, sessionWith, submitted, waitForJob } from './support';

/**
 * Slurm targets against a real single-node cluster (tests/support/slurmCluster.ts): the
 * job runs under slurmd, its state comes from scontrol, its outputs come back as artifact
 * versions. CI installs Slurm and runs as root; elsewhere the file says why it skipped.
 */

const skip = slurmUnavailableReason();
if (skip) console.warn(skip);

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

describe.skipIf(skip !== null)('Slurm compute target', () => {
  let cluster: SlurmCluster;
  let sshd: SshServer | null = null;
  let world: ReturnType<typeof computeWorld>;

  beforeAll(async () => {
    cluster = await startSlurmCluster();
    // The same cluster through a "login node": sshd on loopback hands SLURM_CONF to its sessions.
    if (!sshUnavailableReason()) sshd = await startSshServer({ setEnv: cluster.env });
    world = computeWorld(
      [
        { name: 'local-slurm', kind: 'slurm', partition: cluster.partition, defaults: { cpus: 1, memoryMb: 200 } },
        ...(sshd
          ? [{ name: 'login-node', kind: 'slurm' as const, host: sshd.host, port: sshd.port, user: sshd.user, identityFile: sshd.identityFile, knownHostsFile: sshd.knownHostsFile, workRoot: `${sshd.dir}/work`, defaults: { memoryMb: 200 } }]
          : []),
      ],
      cluster.env,
    );
  }, 90_000);

  afterAll(async () => {
    await world?.cleanup();
    await sshd?.stop();
    await cluster?.stop();
  }, 60_000);

  it('runs a job with staged inputs and harvests its declared output as an artifact version with the job as provenance', async () => {
    const approvals = recordingApprovals();
    const core = world.open({ approvals });
    const sessionId = sessionWith(core, { 'data/n.txt': '5\n' });
    const reference = await core.provenance.artifacts.save({ sessionId, path: 'ref/table.csv', bytes: Buffer.from('a,b\n1,2\n3,4\n'), producer: { kind: 'user' } });
    const script = [
      'import pathlib',
      "n = int(open('data/n.txt').read())",
      "rows = open('ref/table.csv').read().splitlines()",
      "pathlib.Path('results').mkdir(exist_ok=True)",
      "open('results/squares.txt', 'w').write(' '.join(str(i * i) for i in range(n)))",
      "print('squared', n, 'numbers with', len(rows), 'reference rows')",
    ].join('\n');
    const job = submitted(
      await callTool(core, sessionId, 'compute_submit', {
        target: 'local-slurm',
        language: 'python',
        script,
        inputs: [{ workspace: 'data/n.txt' }, { artifact_version: reference.id }],
        outputs: ['results/squares.txt'],
        time_limit_min: 5,
      }),
    );
    // The approval named the target, the resources, the script's first lines and the inputs.
    expect(approvals.questions).toHaveLength(1);
    const detail = approvals.questions[0]!.detail;
    expect(detail).toContain('Target: local-slurm (slurm on this machine)');
    expect(detail).toContain('1 CPU, 200 MB, 5 min limit');
    expect(detail).toContain("n = int(open('data/n.txt').read())");
    expect(detail).toContain(`Inputs: data/n.txt, ${reference.id}`);
    expect(job.schedulerJobId).toMatch(/^\d+$/);

    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done).toMatchObject({ state: 'completed', exitCode: 0, node: cluster.node, partition: cluster.partition, missingOutputs: [] });
    const out = done.outputsHarvested.find((o) => o.path === 'results/squares.txt')!;
    const version = core.provenance.artifacts.version(out.versionId);
    expect(Buffer.from(core.provenance.artifacts.read(out.versionId).base64, 'base64').toString()).toBe('0 1 4 9 16');
    const producer = version.provenance.producer as JobProducer;
    expect(producer).toMatchObject({
      kind: 'job',
      jobId: job.id,
      target: 'local-slurm',
      targetKind: 'slurm',
      schedulerJobId: job.schedulerJobId,
      node: cluster.node,
      partition: cluster.partition,
      exitCode: 0,
      state: 'completed',
      scriptSha256: sha256(script),
    });
    expect(producer.elapsedSeconds).toEqual(expect.any(Number));
    expect(producer.inputs).toEqual([
      { path: 'data/n.txt', sha256: sha256('5\n') },
      { path: 'ref/table.csv', sha256: reference.sha256, versionId: reference.id },
    ]);
    expect(version.provenance.inputEvidence).toEqual([reference.evidenceId]);
    // stdout is kept as evidence of its own.
    const stdout = core.provenance.artifacts.read(done.logs.stdout!.versionId);
    expect(Buffer.from(stdout.base64, 'base64').toString()).toContain('squared 5 numbers with 3 reference rows');
  });

  it('keeps a non-zero exit code and reports the job failed', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'local-slurm', language: 'shell', script: 'echo about to fail >&2\nexit 3' }));
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done, `reason: ${done.reason}`).toMatchObject({ state: 'failed', exitCode: 3 });
    expect(Buffer.from(core.provenance.artifacts.read(done.logs.stderr!.versionId).base64, 'base64').toString()).toContain('about to fail');
  });

  it('fails a job that exits 0 without writing a promised output, naming the output', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(
      await callTool(core, sessionId, 'compute_submit', { target: 'local-slurm', language: 'shell', script: 'echo written > present.txt', outputs: ['present.txt', 'model/weights.bin'] }),
    );
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done).toMatchObject({ state: 'failed', exitCode: 0, missingOutputs: ['model/weights.bin'] });
    expect(done.reason).toContain('declared output "model/weights.bin" was not written');
    // What was written still comes back, and its provenance says the job failed.
    const present = done.outputsHarvested.find((o) => o.path === 'present.txt')!;
    expect((core.provenance.artifacts.version(present.versionId).provenance.producer as JobProducer).state).toBe('failed');
  });

  it('cancels a running job', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'local-slurm', language: 'shell', script: 'sleep 300' }));
    await waitForJob(core, job.id, (j) => j.state === 'running', 'running');
    const cancel = await callTool(core, sessionId, 'compute_cancel', { job_id: job.id });
    expect(cancel.status).toBe('ok');
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done.state).toBe('cancelled');
  });

  it('reports a job stopped at its time limit as timeout', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core);
    // Slurm's smallest limit is one minute, enforced by the controller's periodic check.
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'local-slurm', language: 'shell', script: 'echo started; sleep 600', time_limit_min: 1 }));
    const done = await waitForJob(core, job.id, harvested, 'harvested', 170_000);
    expect(done.state).toBe('timeout');
    expect(done.reason).toMatch(/TimeLimit/);
  }, 180_000);

  it('harvests at the next start a job that finished while the app was closed', async () => {
    const first = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(first);
    const job = submitted(
      await callTool(first, sessionId, 'compute_submit', { target: 'local-slurm', language: 'shell', script: 'sleep 2\necho finished > done.txt', outputs: ['done.txt'] }),
    );
    await first.close();
    // The job goes on without the app; wait for Slurm itself to finish it.
    const clientEnv = { ...process.env, ...cluster.env };
    await waitFor('Slurm to finish the job', () => /JobState=COMPLETED/.test(execFileSync('scontrol', ['show', 'job', '-o', job.schedulerJobId!], { env: clientEnv, encoding: 'utf8' })), 60_000);
    const second = world.open({ unattended: 'allow', resume: true });
    // Nobody asks: the poller resumed at start harvests it.
    let view: ComputeJobView = second.compute.view(job.id);
    await waitFor('the resumed poller to harvest the job', () => (view = second.compute.view(job.id)).harvested || `state ${view.state}`, 60_000);
    expect(view).toMatchObject({ state: 'completed', exitCode: 0, missingOutputs: [] });
    expect(Buffer.from(second.provenance.artifacts.read(view.outputsHarvested[0]!.versionId).base64, 'base64').toString()).toBe('finished\n');
  });

  it('refuses a submission headless unless the unattended policy allows it, and submits nothing', async () => {
    const core = world.open();
    const sessionId = sessionWith(core);
    const before = execFileSync('squeue', ['-h', '--states=all', '-o', '%i'], { env: { ...process.env, ...cluster.env }, encoding: 'utf8' });
    const denied = await callTool(core, sessionId, 'compute_submit', { target: 'local-slurm', language: 'shell', script: 'echo should not run' });
    expect(denied.status).toBe('denied');
    expect(denied.text).toContain('OPENAI4S_UNATTENDED_APPROVAL');
    expect(core.compute.list(sessionId)).toEqual([]);
    expect(execFileSync('squeue', ['-h', '--states=all', '-o', '%i'], { env: { ...process.env, ...cluster.env }, encoding: 'utf8' })).toBe(before);
  });

  it.skipIf(sshUnavailableReason() !== null)('submits through a login node over SSH and brings the output back', async () => {
    const core = world.open({ unattended: 'allow' });
    const sessionId = sessionWith(core, { 'in.txt': 'over ssh' });
    const job = submitted(
      await callTool(core, sessionId, 'compute_submit', { target: 'login-node', language: 'shell', script: 'tr a-z A-Z < in.txt > out.txt', inputs: [{ workspace: 'in.txt' }], outputs: ['out.txt'] }),
    );
    expect(job.remoteDir).toContain(`${sshd!.dir}/work/`);
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done).toMatchObject({ state: 'completed', exitCode: 0, node: cluster.node });
    expect(Buffer.from(core.provenance.artifacts.read(done.outputsHarvested[0]!.versionId).base64, 'base64').toString()).toBe('OVER SSH');
  });
});
