import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { formatDoctor } from '../../../src-main/cli/commands/doctor';
import { resolveKernelLimits } from '../../../src-main/core/config/kernelLimits';
import { createCore } from '../../../src-main/core/core';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-doctor-limits-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('kernel limits in doctor', () => {
  it('shows each limit, where it came from (envs/limits.json, the environment, the data root .env) and what enforces it', async () => {
    fs.writeFileSync(path.join(dir, '.env'), 'OPENAI4S_KERNEL_OPEN_FILES=777\n');
    const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_MEMORY_MB: '3000' } });
    const report = await core.doctor();
    const byName = Object.fromEntries(report.kernelLimits!.limits.map((l) => [l.name, l]));
    expect(byName.memoryMiB).toMatchObject({ value: 3000, source: 'env', variable: 'OPENAI4S_KERNEL_MEMORY_MB' });
    expect(byName.openFiles).toMatchObject({ value: 777, source: 'dotenv' });
    expect(byName.processes!.source).toBe('default');
    // This machine sandboxes with bwrap and has prlimit: each limit names its mechanism.
    expect(byName.memoryMiB!.mechanisms).toContain('RLIMIT_AS (per process)');
    expect(byName.fileSizeMiB!.mechanisms).toEqual(['RLIMIT_FSIZE']);
    expect(byName.tmpMiB!.mechanisms[0]).toMatch(/--size/);
    expect(byName.processes!.mechanisms.length).toBeGreaterThan(0);
    const text = formatDoctor(report);
    expect(text).toMatch(/kernel limits\n/);
    expect(text).toMatch(/memory\s+3000 MiB\s+RLIMIT_AS/);
    expect(text).toMatch(/cgroups/);
    await core.close();
  });

  it('a malformed override is a clear error naming the variable and the fix', () => {
    expect(() => resolveKernelLimits((n) => (n === 'OPENAI4S_KERNEL_MAX_PROCESSES' ? { value: 'lots', source: 'env' } : undefined))).toThrow(
      /OPENAI4S_KERNEL_MAX_PROCESSES=lots is not a whole number.*0 for no limit/,
    );
    expect(() => resolveKernelLimits((n) => (n === 'OPENAI4S_KERNEL_MEMORY_MB' ? { value: '10', source: 'env' } : undefined))).toThrow(/too small/);
  });
});
