import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { computeWorld, sessionWith } from './support';

const CALLER = { origin: 'app://openai4s', isMainFrame: true };

// The compute routes of the Jobs tab and Settings → Compute, over a real core (no target reached).

let world: ReturnType<typeof computeWorld>;
afterEach(async () => world?.cleanup());

describe('compute routes', () => {
  it('saves, lists and removes targets in the data-root file, refusing a password', async () => {
    world = computeWorld([]);
    const core = world.open();
    const h = createHandlers(core);
    expect(await h['compute.targets']({}, CALLER)).toEqual([]);
    await expect(h['compute.targets.save']({ target: { name: 'hpc', kind: 'slurm', host: 'login.example.org', password: 'hunter2' } }, CALLER)).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringContaining('must not hold a key, password or token'),
    });
    const saved = await h['compute.targets.save']({ target: { name: 'hpc', kind: 'slurm', host: 'login.example.org', user: 'me', port: 2222 } }, CALLER);
    expect(saved).toEqual([{ name: 'hpc', kind: 'slurm', host: 'login.example.org', user: 'me', port: 2222, where: 'me@login.example.org:2222' }]);
    expect(JSON.parse(fs.readFileSync(core.compute.targets.file, 'utf8'))).toEqual({ targets: [{ name: 'hpc', kind: 'slurm', host: 'login.example.org', user: 'me', port: 2222 }] });
    expect(await h['compute.targets.remove']({ name: 'hpc' }, CALLER)).toEqual([]);
    await expect(h['compute.targets.remove']({ name: 'hpc' }, CALLER)).rejects.toMatchObject({ code: 'not_found' });
  });

  it("lists a session's jobs, and a submission to a missing target names how to add one", async () => {
    world = computeWorld([]);
    const core = world.open();
    const sessionId = sessionWith(core);
    expect(await createHandlers(core)['compute.jobs']({ sessionId }, CALLER)).toEqual([]);
    await expect(core.compute.submit({ sessionId, runId: null, target: 'hpc', language: 'shell', script: 'true' })).rejects.toMatchObject({
      code: 'not_configured',
      message: expect.stringMatching(/No compute target "hpc"\. None is configured: Add one in Settings → Compute or in .*targets\.json/),
    });
  });
});
