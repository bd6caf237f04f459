import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ComputeTargetConfig } from '../../../src-preload/contract/compute';
import { freePort, waitFor } from '../../support/daemons';
import { sshUnavailableReason, startSshServer, type SshServer } from '../../support/sshServer';
import { callTool, computeWorld, harvested, sessionWith, submitted, waitForJob } from './support';

// A target that stops answering: failed polls back off, and after OPENAI4S_COMPUTE_UNREACHABLE_MS
// the job is marked unreachable (not failed: it may still run there) with what to fix; the
// automatic poller leaves it; a user's retry asks again, and a target that answers resumes it.

let world: ReturnType<typeof computeWorld> | null = null;
let sshd: SshServer | null = null;
afterEach(async () => {
  await world?.cleanup();
  world = null;
  await sshd?.stop();
  sshd = null;
}, 60_000);

const POLL_MS = '50';
const UNREACHABLE_MS = '1500';

describe('compute polling of an unreachable target', () => {
  it('backs off, then stops polling a job whose SSH target refuses connections, naming the target and the fix; a retry asks again', async () => {
    const port = await freePort(); // nothing listens here
    world = computeWorld([], { OPENAI4S_COMPUTE_POLL_MS: POLL_MS, OPENAI4S_COMPUTE_UNREACHABLE_MS: UNREACHABLE_MS });
    const knownHosts = path.join(world.dataDir, 'known_hosts');
    fs.writeFileSync(knownHosts, '');
    const target: ComputeTargetConfig = { name: 'lab-box', kind: 'ssh', host: '127.0.0.1', port, user: 'nobody', knownHostsFile: knownHosts };
    const core = world.open({ resume: true });
    const sessionId = sessionWith(core);
    const id = 'job_aaaaaaaaaaaaaaaa';
    const spec = { language: 'shell', scriptHead: 'sleep 1', scriptFile: 'job.sh', inputs: [], outputs: [], resources: {}, localDir: world.dataDir, target };
    core.ledger.compute.create({ id, sessionId, runId: null, target: 'lab-box', targetKind: 'ssh', scriptSha256: 'a'.repeat(64), spec });
    core.ledger.compute.append(id, 'submitted', { schedulerJobId: '4242', remoteDir: '/home/nobody/openai4s-jobs/x' });
    // The core was opened with resume: its poller is already running; the job joins at its next tick.
    await core.compute.pollOpen({ auto: true });

    await waitFor('the job to be marked unreachable', () => core.compute.view(id).unreachable || `poll error: ${core.compute.view(id).pollError}`, 60_000, 50);
    const view = core.compute.view(id);
    expect(view).toMatchObject({ state: 'pending', harvested: false, unreachable: true });
    expect(view.pollError).toMatch(/^target "lab-box" \(nobody@127\.0\.0\.1:\d+\) could not be polled for \d+ s over \d+ tries \(last: .*\); automatic polling of this job stopped, and the job itself may still be running there\. Fix the target's connection .* in Settings → Compute or compute\/targets\.json in the data root, or the network, then retry the job \(Retry in the Jobs panel, compute_status, or `openai4s compute status job_aaaaaaaaaaaaaaaa`\)\.$/);
    const errors = () => core.ledger.compute.events(id).filter((e) => e.kind === 'poll_error').length;
    const tries = errors();
    // Backed off: over 1.5 s at a 50 ms interval, polling without back-off would have tried about 30 times.
    expect(tries).toBeLessThan(12);
    // The automatic poller leaves it now (several intervals pass, and a tick runs, without a new try).
    await core.compute.pollOpen({ auto: true });
    await new Promise((r) => setTimeout(r, 500));
    expect(errors()).toBe(tries);
    // compute_result does not wait out its time on an unreachable target.
    const result = await callTool(core, sessionId, 'compute_result', { job_id: id, wait_s: 600 });
    expect(result.text).toMatch(/could not be polled for/);
    // A user's retry asks the target again (still refused: still unreachable, one more try recorded).
    const again = await callTool(core, sessionId, 'compute_status', { job_id: id });
    expect(again.status).toBe('ok');
    expect(errors()).toBeGreaterThan(tries);
    expect(core.compute.view(id).unreachable).toBe(true);
  }, 120_000);

  const skip = sshUnavailableReason();
  it.skipIf(skip !== null)('a job whose target was unreachable resumes after the target is fixed and the user retries, and is harvested', async () => {
    sshd = await startSshServer();
    const good: ComputeTargetConfig = { name: 'gpu-box', kind: 'ssh', host: sshd.host, port: sshd.port, user: sshd.user, identityFile: sshd.identityFile, knownHostsFile: sshd.knownHostsFile, workRoot: `${sshd.dir}/work` };
    world = computeWorld([good], { OPENAI4S_COMPUTE_POLL_MS: POLL_MS, OPENAI4S_COMPUTE_UNREACHABLE_MS: UNREACHABLE_MS });
    const core = world.open({ unattended: 'allow', resume: true });
    const sessionId = sessionWith(core);
    const job = submitted(await callTool(core, sessionId, 'compute_submit', { target: 'gpu-box', language: 'shell', script: 'mkdir -p out\nsleep 2\necho done > out/x.txt', outputs: ['out/x.txt'] }));
    // The target's port is edited to one where nothing listens (a network change, a moved login node).
    const targetsFile = path.join(world.dataDir, 'compute', 'targets.json');
    fs.writeFileSync(targetsFile, JSON.stringify({ targets: [{ ...good, port: await freePort() }] }));
    await waitFor('the job to be marked unreachable', () => core.compute.view(job.id).unreachable || `poll error: ${core.compute.view(job.id).pollError}`, 60_000, 50);
    // Fixed: the configured target of the same host applies to the job already out there.
    fs.writeFileSync(targetsFile, JSON.stringify({ targets: [good] }));
    const retried = await callTool(core, sessionId, 'compute_status', { job_id: job.id });
    expect(retried.status).toBe('ok');
    expect(core.compute.view(job.id)).toMatchObject({ unreachable: false, pollError: null });
    // The automatic poller has it again.
    await waitFor('the job to be harvested by the poller', () => core.compute.view(job.id).harvested || core.compute.view(job.id).state, 60_000, 100);
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done).toMatchObject({ state: 'completed', exitCode: 0, missingOutputs: [] });
  }, 120_000);
});
