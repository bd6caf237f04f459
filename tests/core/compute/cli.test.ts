import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ComputeJobView, ComputeTargetView } from '../../../src-preload/contract/compute';
import { runCli } from '../../../src-main/cli/main';
import { waitFor } from '../../support/daemons';
import { sshUnavailableReason, startSshServer, type SshServer } from '../../support/sshServer';
import { computeWorld, sessionWith } from './support';

/** `openai4s compute targets|submit|status|result|cancel` against an SSH target on loopback. */

const skip = sshUnavailableReason();
if (skip) console.warn(skip);

describe.skipIf(skip !== null)('openai4s compute', () => {
  let sshd: SshServer;
  let world: ReturnType<typeof computeWorld>;
  let sessionId: string;

  beforeAll(async () => {
    sshd = await startSshServer();
    world = computeWorld([{ name: 'box', kind: 'ssh', host: sshd.host, port: sshd.port, user: sshd.user, identityFile: sshd.identityFile, knownHostsFile: sshd.knownHostsFile, workRoot: `${sshd.dir}/work` }]);
    const core = world.open();
    sessionId = sessionWith(core, { 'numbers.txt': '3\n4\n' });
    await core.close();
  }, 60_000);

  afterAll(async () => {
    await world?.cleanup();
    await sshd?.stop();
  });

  async function cli(...args: string[]) {
    let out = '';
    let err = '';
    const code = await runCli(['compute', ...args], { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, { ...process.env, OPENAI4S_DATA_DIR: world.dataDir, OPENAI4S_KERNEL_PREWARM: '0' });
    return { code, out, err };
  }

  it('lists targets, submits a job, follows it to its harvested output, and refuses to cancel a finished one', async () => {
    const targets = await cli('targets', '--json');
    expect(targets.code).toBe(0);
    expect((JSON.parse(targets.out) as ComputeTargetView[]).map((t) => [t.name, t.kind, t.where])).toEqual([['box', 'ssh', `${sshd.user}@127.0.0.1:${sshd.port}`]]);

    const script = path.join(world.dataDir, 'sum.py');
    fs.writeFileSync(script, "total = sum(int(x) for x in open('numbers.txt'))\nopen('total.txt', 'w').write(str(total))\n");
    const submit = await cli('submit', '--target', 'box', '--session', sessionId, '--language', 'python', '--script-file', script, '--inputs', 'numbers.txt', '--outputs', 'total.txt', '--json');
    expect(submit.err).toBe('');
    expect(submit.code).toBe(0);
    const job = JSON.parse(submit.out) as ComputeJobView;
    expect(job).toMatchObject({ target: 'box', outputs: ['total.txt'], inputs: [{ path: 'numbers.txt', source: 'workspace' }] });

    let status: ComputeJobView | null = null;
    let asking = false;
    await waitFor('the job to be harvested through `compute status`', () => {
      if (!asking) {
        asking = true;
        void cli('status', job.id, '--json').then((r) => {
          status = JSON.parse(r.out) as ComputeJobView;
          asking = false;
        });
      }
      return status?.harvested === true || `state ${status?.state ?? '?'}`;
    });
    const result = await cli('result', job.id, '--json');
    expect(result.code).toBe(0);
    const done = JSON.parse(result.out) as ComputeJobView;
    expect(done).toMatchObject({ state: 'completed', exitCode: 0, missingOutputs: [] });
    expect(done.outputsHarvested.map((o) => o.path)).toEqual(['total.txt']);

    const listed = await cli('status', '--session', sessionId);
    expect(listed.out).toMatch(new RegExp(`^${job.id}  box pid \\d+  completed exit 0 .*\\(harvested\\)$`, 'm'));

    const cancel = await cli('cancel', job.id);
    expect(cancel.code).toBe(1);
    expect(cancel.err.trim().split('\n')).toEqual([`openai4s compute: Job ${job.id} already ended (completed); nothing to cancel.`]);
  });

  it('answers a failed job with a non-zero exit and its reason on one stderr line', async () => {
    const script = path.join(world.dataDir, 'fail.sh');
    fs.writeFileSync(script, 'exit 4\n');
    const submit = await cli('submit', '--target', 'box', '--session', sessionId, '--language', 'shell', '--script-file', script, '--json');
    const job = JSON.parse(submit.out) as ComputeJobView;
    const result = await cli('result', job.id, '--wait', '60');
    expect(result.code).toBe(1);
    expect(result.out).toMatch(/failed exit 4/);
    expect(result.err.trim().split('\n')).toEqual([`openai4s compute: job ${job.id} ended failed (exit 4).`]);
  });

  it('refuses bad input with one line naming the problem', async () => {
    const missing = await cli('submit', '--target', 'box');
    expect(missing.code).toBe(2);
    expect(missing.err.trim().split('\n')).toEqual(['openai4s compute: submit needs --target, --session, --language and --script-file. See openai4s compute --help.']);
    const unknown = await cli('submit', '--target', 'nope', '--session', sessionId, '--language', 'shell', '--script-file', path.join(world.dataDir, 'fail.sh'));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toMatch(/^openai4s compute: No compute target "nope"\. Configured: box\. Add one in Settings → Compute or in .*targets\.json/);
    expect(unknown.err.trim().split('\n')).toHaveLength(1);
    const badJob = await cli('result', 'job_123');
    expect(badJob.code).toBe(2);
  });
});
