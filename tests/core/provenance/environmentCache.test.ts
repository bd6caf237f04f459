import { describe, expect, it } from 'vitest';
import { GenerationEnvironments } from '../../../src-main/core/provenance/environment';

/** Nothing grows without bound (issue 16): one probe per kernel generation, but not one entry per generation forever. */
describe('generation environments', () => {
  it('keeps a generation described once, and only the latest generations', async () => {
    let probes = 0;
    const envs = new GenerationEnvironments(() => {
      probes++;
      return { path: null, reason: 'not installed here', packages: [] };
    });
    const first = envs.describe({ language: 'python', generation: 'g0' });
    expect(envs.describe({ language: 'python', generation: 'g0' })).toBe(first);
    for (let i = 1; i <= 1_000; i++) await envs.describe({ language: 'python', generation: `g${i}` });
    expect(probes).toBe(1_001);
    expect(envs.size).toBeLessThanOrEqual(64);
    // An old generation described again is probed again, with the same answer.
    expect(await envs.describe({ language: 'python', generation: 'g0' })).toEqual(await first);
    expect(probes).toBe(1_002);
  });
});
