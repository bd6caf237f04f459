import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import type { SandboxMode } from '../../../src-preload/contract/doctor';
import { makeSupervisor } from './helpers';

// The sandbox is unavailable here by construction (a scripted self-test report), so the
// decision depends only on the mode the supervisor is given.
let mode: SandboxMode = 'enforce';
const { sup, dataDir } = makeSupervisor({
  sandboxMode: () => mode,
  sandboxReport: () => Promise.resolve({ backend: 'none', available: false, mode, reason: 'no sandbox in this test' }),
});
afterAll(async () => {
  await sup.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('sandbox mode option', () => {
  it('is asked at each decision, so a changed setting applies to the next kernel without a new supervisor', async () => {
    const enforced = await sup.sandbox();
    expect(enforced.refuse).toMatch(/OPENAI4S_SANDBOX=enforce and the kernel sandbox is unavailable: no sandbox in this test/);
    mode = 'off';
    expect(await sup.sandbox()).toEqual({ state: { state: 'off' } });
    mode = 'auto';
    expect(await sup.sandbox()).toEqual({ state: { state: 'degraded', reason: 'no sandbox in this test' } });
  });
});
