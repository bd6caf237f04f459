import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../support/daemons';
import { computeWorld, sessionWith } from './support';

// Two pollers on one ledger (the app and the CLI): one harvest per job, and a submission
// still uploading in another process is not declared lost (nor one whose target cannot say).

let world: ReturnType<typeof computeWorld>;
afterEach(async () => world?.cleanup());

const spec = (localDir: string) => ({
  language: 'shell',
  scriptHead: 'true',
  scriptFile: 'job.sh',
  inputs: [],
  outputs: [],
  resources: {},
  localDir,
  target: { name: 'box', kind: 'ssh', host: '127.0.0.1' },
});

describe('compute jobs in the ledger', () => {
  it('lets one poller claim a harvest; a failed harvest releases the claim; a harvested job cannot be claimed', () => {
    world = computeWorld([]);
    const core = world.open();
    const sessionId = sessionWith(core);
    const repo = core.ledger.compute;
    repo.create({ id: 'job_aaaaaaaaaaaaaaaa', sessionId, runId: null, target: 'box', targetKind: 'ssh', scriptSha256: 'a'.repeat(64), spec: spec(world.dataDir) });
    repo.append('job_aaaaaaaaaaaaaaaa', 'submitted', { schedulerJobId: '1', remoteDir: '/x' });
    const since = new Date(Date.now() - 60_000).toISOString();
    const report = { state: 'completed', exitCode: 0 };
    expect(repo.claimHarvest('job_aaaaaaaaaaaaaaaa', { ...report, harvestClaim: 'poller_a' }, since)).toBe(true);
    expect(repo.claimHarvest('job_aaaaaaaaaaaaaaaa', { ...report, harvestClaim: 'poller_b' }, since)).toBe(false);
    repo.append('job_aaaaaaaaaaaaaaaa', 'poll_error', { message: 'harvest failed', releasesClaim: true });
    expect(repo.claimHarvest('job_aaaaaaaaaaaaaaaa', { ...report, harvestClaim: 'poller_b' }, since)).toBe(true);
    // A claim older than the window is presumed dead.
    expect(repo.claimHarvest('job_aaaaaaaaaaaaaaaa', { ...report, harvestClaim: 'poller_c' }, new Date(Date.now() + 1_000).toISOString())).toBe(true);
    repo.append('job_aaaaaaaaaaaaaaaa', 'harvested', { state: 'completed', reason: null, exitCode: 0, outputs: [], missing: [], logs: { stdout: null, stderr: null } });
    expect(repo.claimHarvest('job_aaaaaaaaaaaaaaaa', { ...report, harvestClaim: 'poller_d' }, new Date(Date.now() + 1_000).toISOString())).toBe(false);
    expect(repo.open()).toEqual([]);
  });

  it('leaves a fresh job without its submitted event alone; an old one whose target cannot be asked waits with a poll error, not declared never submitted', async () => {
    world = computeWorld([]);
    const core = world.open();
    const sessionId = sessionWith(core);
    const repo = core.ledger.compute;
    repo.create({ id: 'job_bbbbbbbbbbbbbbbb', sessionId, runId: null, target: 'box', targetKind: 'ssh', scriptSha256: 'b'.repeat(64), spec: spec(world.dataDir) });
    expect(await core.compute.refresh('job_bbbbbbbbbbbbbbbb')).toMatchObject({ state: 'pending', harvested: false, pollError: null });
    // Past the grace period the target is asked whether the job reached it; this one refuses the connection.
    const old = new Date(Date.now() - 60 * 60_000).toISOString();
    const closed = { ...spec(world.dataDir), target: { name: 'box', kind: 'ssh', host: '127.0.0.1', port: await freePort(), user: 'nobody' } };
    repo.create({ id: 'job_cccccccccccccccc', sessionId, runId: null, target: 'box', targetKind: 'ssh', scriptSha256: 'c'.repeat(64), spec: closed, createdAt: old });
    const view = await core.compute.refresh('job_cccccccccccccccc');
    expect(view).toMatchObject({ state: 'pending', harvested: false });
    expect(view.pollError).toContain('not declared lost while the target cannot answer');
  });
});
