import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { ArtifactVersion } from '../../../src-preload/contract/artifacts';
import { sshUnavailableReason } from '../../support/sshServer';
import { harvested, sessionWith, useSshWorld, waitForJob } from './support';

/**
 * A harvest that failed part-way (its outputs saved, a log not) is done again at the next
 * poll: the job ends harvested with one version per output, not one per attempt, and the
 * local harvest folder keeps no copy of what the artifact store now holds.
 */

const skip = sshUnavailableReason();
if (skip) console.warn(skip);

describe.skipIf(skip !== null)('a harvest retried after it failed part-way', () => {
  const ssh = useSshWorld();

  it('records each unchanged output once, whatever the number of attempts', async () => {
    const core = ssh.world.open();
    const sessionId = sessionWith(core);
    const artifacts = core.provenance.artifacts;
    const save = artifacts.save.bind(artifacts);
    let failures = 0;
    // The disk fills up as the first attempt saves the job's stderr log, after its outputs.
    artifacts.save = async (input) => {
      if (input.path.endsWith('/stderr.log') && failures++ === 0) throw new Error('ENOSPC: no space left on device');
      return save(input);
    };
    const job = await core.compute.submit({ sessionId, runId: null, target: 'gpu-box', language: 'shell', script: 'head -c 3000000 /dev/zero > big.bin\necho done > note.txt\necho out', outputs: ['big.bin', 'note.txt'] });
    const done = await waitForJob(core, job.id, harvested, 'harvested');
    expect(done, `reason: ${done.reason}`).toMatchObject({ state: 'completed', exitCode: 0, missingOutputs: [] });
    expect(failures).toBeGreaterThanOrEqual(2);
    const events = core.ledger.compute.events(job.id);
    expect(events.filter((e) => e.kind === 'poll_error').map((e) => e.data.message)).toEqual([expect.stringContaining('harvest failed (retried at the next poll): ENOSPC')]);
    expect(events.filter((e) => e.kind === 'harvested')).toHaveLength(1);

    const ofJob = (logical: string): ArtifactVersion[] => {
      const a = artifacts.list(sessionId).find((x) => x.path === logical);
      return a ? artifacts.versions(a.id) : [];
    };
    for (const o of ['big.bin', 'note.txt', `compute/${job.id}/stdout.log`, `compute/${job.id}/stderr.log`]) expect(ofJob(o), o).toHaveLength(1);
    expect(done.outputsHarvested.map((o) => o.versionId)).toEqual([ofJob('big.bin')[0]!.id, ofJob('note.txt')[0]!.id]);
    expect(done.outputsHarvested[0]).toMatchObject({ path: 'big.bin', size: 3_000_000 });
    // The downloaded files moved into the store: the harvest folder holds none of them.
    const harvestDir = path.join(ssh.world.dataDir, 'compute', 'jobs', job.id, 'harvest');
    expect(fs.existsSync(path.join(harvestDir, 'big.bin'))).toBe(false);
    expect(fs.existsSync(path.join(harvestDir, 'note.txt'))).toBe(false);
    await core.close();
  });
});
