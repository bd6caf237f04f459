import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../support/daemons';
import { slurmUnavailableReason, startSlurmCluster, type SlurmCluster } from '../../support/slurmCluster';
import { sshUnavailableReason } from '../../support/sshServer';
import { computeWorld, crashDuringSubmit, harvested, useSshWorld, waitForJob } from './support';

/**
 * The app killed (SIGKILL) in the middle of a submission, then started again. Killed after
 * the target took the job but before the ledger recorded its id, the job is found on the
 * target by its name, adopted and harvested once (never submitted a second time); killed
 * before anything reached the target, it is declared never submitted at once, since the
 * target can say it does not know it; with a target that cannot be asked, it waits.
 */

const skip = slurmUnavailableReason();
if (skip) console.warn(skip);

describe.skipIf(skip !== null)('a Slurm submission cut by a crash', () => {
  let cluster: SlurmCluster;
  let world: ReturnType<typeof computeWorld>;
  /** The Slurm job ids the controller holds under this app job's name (every state). */
  const slurmJobsNamed = (jobId: string): string[] => {
    const r = spawnSync('squeue', ['-h', '--states=all', `--name=o4s-${jobId}`, '-o', '%i'], { env: { ...process.env, ...cluster.env }, encoding: 'utf8' });
    expect(r.status, r.stderr).toBe(0);
    return r.stdout.split('\n').filter(Boolean);
  };

  beforeAll(async () => {
    cluster = await startSlurmCluster();
    world = computeWorld([{ name: 'local-slurm', kind: 'slurm', partition: cluster.partition, defaults: { memoryMb: 200 } }], cluster.env);
  }, 90_000);

  afterAll(async () => {
    await world?.cleanup();
    await cluster?.stop();
  }, 60_000);

  it('finds a job sbatch took before the app died, adopts it and harvests it once, with no second submission', async () => {
    await crashDuringSubmit(world.dataDir, 'local-slurm', 'after-submit', cluster.env);
    const core = world.open({ resume: true });
    const [row] = core.ledger.compute.list();
    expect(core.compute.view(row!.id)).toMatchObject({ schedulerJobId: null, harvested: false });
    // The crash left the job on the cluster, untracked.
    const onCluster = slurmJobsNamed(row!.id);
    expect(onCluster).toHaveLength(1);

    const done = await waitForJob(core, row!.id, harvested, 'harvested');
    expect(done, `reason: ${done.reason}`).toMatchObject({ state: 'completed', exitCode: 0, schedulerJobId: onCluster[0] });
    expect(Buffer.from(core.provenance.artifacts.read(done.outputsHarvested[0]!.versionId).base64, 'base64').toString()).toBe('adopted\n');
    expect(Buffer.from(core.provenance.artifacts.read(done.logs.stdout!.versionId).base64, 'base64').toString()).toBe('ran\n');
    // Another poll changes nothing: one adoption, one harvest, still one job on the cluster.
    await core.compute.refresh(row!.id);
    const kinds = core.ledger.compute.events(row!.id).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'submitted')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'harvested')).toHaveLength(1);
    expect(kinds).not.toContain('submit_failed');
    expect(core.ledger.compute.events(row!.id).find((e) => e.kind === 'submitted')!.data).toMatchObject({ schedulerJobId: onCluster[0], recovered: true });
    expect(slurmJobsNamed(row!.id)).toEqual(onCluster);
    expect(core.ledger.db.pragma('integrity_check', { simple: true })).toBe('ok');
    await core.close();
  });

  it('declares a job that never reached the cluster never submitted at the next start, without the 15-minute wait', async () => {
    await crashDuringSubmit(world.dataDir, 'local-slurm', 'before-submit', cluster.env);
    const core = world.open();
    const row = core.ledger.compute.list().find((j) => core.compute.view(j.id).schedulerJobId === null && !core.compute.view(j.id).harvested);
    expect(row).toBeDefined();
    const view = await core.compute.refresh(row!.id);
    expect(view).toMatchObject({ state: 'failed', harvested: true, reason: expect.stringContaining('never submitted') });
    expect(view.reason).toContain(`knows no job named o4s-${row!.id}`);
    expect(slurmJobsNamed(row!.id)).toEqual([]);
    expect(core.ledger.db.pragma('integrity_check', { simple: true })).toBe('ok');
    await core.close();
  });
});

const noSsh = sshUnavailableReason();
if (noSsh) console.warn(noSsh);

describe.skipIf(noSsh !== null)('an SSH launch cut by a crash', () => {
  const ssh = useSshWorld();

  it('adopts a job the host launched before the app died, by the pid its folder holds, and harvests it once', async () => {
    await crashDuringSubmit(ssh.world.dataDir, 'gpu-box', 'after-submit', {});
    const core = ssh.world.open({ resume: true });
    const [row] = core.ledger.compute.list();
    const pid = fs.readFileSync(path.join(ssh.sshd.dir, 'work', row!.id, '.openai4s', 'pid'), 'utf8').trim();
    const done = await waitForJob(core, row!.id, harvested, 'harvested');
    expect(done, `reason: ${done.reason}`).toMatchObject({ state: 'completed', exitCode: 0, schedulerJobId: pid, remoteDir: path.join(ssh.sshd.dir, 'work', row!.id) });
    expect(Buffer.from(core.provenance.artifacts.read(done.outputsHarvested[0]!.versionId).base64, 'base64').toString()).toBe('adopted\n');
    await core.compute.refresh(row!.id);
    const kinds = core.ledger.compute.events(row!.id).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'submitted')).toHaveLength(1);
    expect(kinds.filter((k) => k === 'harvested')).toHaveLength(1);
    // Launched once: the pid the crash left is still the folder's.
    expect(fs.readFileSync(path.join(ssh.sshd.dir, 'work', row!.id, '.openai4s', 'pid'), 'utf8').trim()).toBe(pid);
    expect(core.ledger.db.pragma('integrity_check', { simple: true })).toBe('ok');
    await core.close();
  });

  it('finds a launched job in the work root it was submitted under, though the target’s workRoot was edited since', async () => {
    await crashDuringSubmit(ssh.world.dataDir, 'gpu-box', 'after-submit', {});
    const targetsFile = path.join(ssh.world.dataDir, 'compute', 'targets.json');
    const before = fs.readFileSync(targetsFile, 'utf8');
    const edited = JSON.parse(before) as { targets: Array<Record<string, unknown>> };
    edited.targets[0]!.workRoot = `${ssh.sshd.dir}/elsewhere`;
    fs.writeFileSync(targetsFile, JSON.stringify(edited));
    try {
      const core = ssh.world.open();
      const row = core.ledger.compute.list().find((j) => !core.compute.view(j.id).harvested && core.compute.view(j.id).schedulerJobId === null);
      const done = await waitForJob(core, row!.id, harvested, 'harvested');
      expect(done, `reason: ${done.reason}`).toMatchObject({ state: 'completed', remoteDir: path.join(ssh.sshd.dir, 'work', row!.id) });
      await core.close();
    } finally {
      fs.writeFileSync(targetsFile, before);
    }
  });

  it('declares a job whose folder never reached the host never submitted at the next start', async () => {
    await crashDuringSubmit(ssh.world.dataDir, 'gpu-box', 'before-submit', {});
    const core = ssh.world.open();
    const row = core.ledger.compute.list().find((j) => !core.compute.view(j.id).harvested);
    const view = await core.compute.refresh(row!.id);
    expect(view).toMatchObject({ state: 'failed', harvested: true, reason: expect.stringContaining('never submitted') });
    expect(view.reason).toContain('its job folder is not on');
    await core.close();
  });
});

describe('a submission cut by a crash, with a target that cannot be asked', () => {
  let world: ReturnType<typeof computeWorld> | undefined;
  afterEach(async () => world?.cleanup());

  it('keeps the job open with a poll error naming the target, instead of declaring it never submitted', async () => {
    // A loopback port nothing listens on: ssh is refused at once.
    const port = await freePort();
    world = computeWorld([{ name: 'gone-box', kind: 'ssh', host: '127.0.0.1', port, user: 'nobody' }]);
    await crashDuringSubmit(world.dataDir, 'gone-box', 'before-submit', {});
    const core = world.open();
    const [row] = core.ledger.compute.list();
    const view = await core.compute.refresh(row!.id);
    expect(view).toMatchObject({ state: 'pending', harvested: false, schedulerJobId: null });
    expect(view.pollError).toContain('not declared lost while the target cannot answer');
    expect(core.ledger.compute.open().map((j) => j.id)).toEqual([row!.id]);
  });
});
