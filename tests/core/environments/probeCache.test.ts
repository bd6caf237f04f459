import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ProbeCache } from '../../../src-main/core/environments/probeCache';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-probe-cache-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const env = { PATH: '/usr/bin:/bin', LANG: 'C.UTF-8' };

// The app closes (core.close) while a probe still runs: the probe answers, but the data
// folder gets no file after the close (its owner may be removing it).
describe('the environment probe cache across the app closing', () => {
  it('writes the probe it ran while open', async () => {
    const file = path.join(dir, 'open', 'environment-probes.json');
    const probe = await new ProbeCache(file, env).probe('python', '/usr/bin/python3', ['json']);
    expect(probe.ok).toBe(true);
    expect(fs.existsSync(file)).toBe(true);
  }, 60_000);

  it('a probe that finishes after close answers its caller and writes nothing', async () => {
    const folder = path.join(dir, 'closed');
    const cache = new ProbeCache(path.join(folder, 'environment-probes.json'), env);
    const running = cache.probe('python', '/usr/bin/python3', ['json']);
    cache.close();
    expect((await running).ok).toBe(true);
    expect(fs.existsSync(folder)).toBe(false);
  }, 60_000);
});
