import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { computeWorld, sessionWith } from './support';

/**
 * Two processes on one ledger (the app and the CLI) both find a row whose submitter died and
 * both ask the target. Only the first answer settles the submission: the job is adopted once
 * (one `submitted` event), and a later, different answer cannot contradict it.
 */

let world: ReturnType<typeof computeWorld>;
afterEach(async () => world?.cleanup());

const JOB = 'job_dddddddddddddddd';

/** A row left by a submitter that died (an hour ago, unstamped) after the local host launched the job. */
function crashedRow(core: ReturnType<typeof world.open>, localDir: string): void {
  fs.mkdirSync(path.join(localDir, '.openai4s'), { recursive: true });
  fs.writeFileSync(path.join(localDir, '.openai4s', 'pid'), '999999\n');
  fs.writeFileSync(path.join(localDir, '.openai4s', 'exit_code'), '0\n');
  const spec = { language: 'shell', scriptHead: 'true', scriptFile: 'job.sh', inputs: [], outputs: [], resources: {}, localDir, target: { name: 'here', kind: 'ssh' } };
  const createdAt = new Date(Date.now() - 60 * 60_000).toISOString();
  core.ledger.compute.create({ id: JOB, sessionId: sessionWith(core), runId: null, target: 'here', targetKind: 'ssh', scriptSha256: 'd'.repeat(64), spec, createdAt });
}

describe('recovering an interrupted submission from two processes at once', () => {
  it('adopts the job once: the second recoverer finds the submission settled and records nothing of its own', async () => {
    world = computeWorld([{ name: 'here', kind: 'ssh' }]);
    const [app, cli] = [world.open(), world.open()];
    crashedRow(app, path.join(world.dataDir, 'work', JOB));
    await Promise.all([app.compute.refresh(JOB), cli.compute.refresh(JOB)]);
    const kinds = app.ledger.compute.events(JOB).map((e) => e.kind);
    expect(kinds.filter((k) => k === 'submitted')).toHaveLength(1);
    expect(kinds).not.toContain('submit_failed');
  });

  it('never lets a later never-submitted answer close a job another recoverer adopted', async () => {
    world = computeWorld([{ name: 'here', kind: 'ssh' }]);
    const core = world.open();
    crashedRow(core, path.join(world.dataDir, 'work', JOB));
    const repo = core.ledger.compute;
    expect(repo.settleSubmission(JOB, 'submitted', { schedulerJobId: '999999', remoteDir: '/x', recovered: true })).toBe(true);
    expect(repo.settleSubmission(JOB, 'submit_failed', { reason: 'never submitted' })).toBe(false);
    expect(repo.events(JOB).map((e) => e.kind)).toEqual(['submitted']);
  });
});
