import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createKernelCgroup, detectCgroups } from '../../../src-main/core/kernel/cgroup';
import { makeSupervisor } from './helpers';

// A kernel whose processes together pass the memory limit is killed by the OOM killer of its
// memory cgroup. Its death then says that, with the limit and how to raise it, instead of a
// bare "killed by SIGKILL". Each process stays under its own RLIMIT_AS (the same limit), so
// only the cgroup's total can stop them. Skipped where the app cannot make memory cgroups.
const LIMIT_MIB = 400;
const memoryCgroup = Boolean(detectCgroups().controllers.memory);
const { sup } = makeSupervisor({ kernelLimits: { processes: 512, memoryMiB: LIMIT_MIB, fileSizeMiB: 64, openFiles: 1024, tmpMiB: 64 } });
afterAll(() => sup.close());

describe.skipIf(!memoryCgroup)('a kernel over its memory cgroup', () => {
  it('dies of it, and its death and slot say it ran out of memory at the limit', async () => {
    // The worker holds 200 MiB, then starts programs of 100 MiB each: together past 400 MiB
    // while the worker is the biggest, so the OOM killer picks it. Each process stays under its
    // own RLIMIT_AS. (Forked children would share the worker's pages and count them as theirs.)
    const code = [
      'import subprocess, sys',
      'held = b"x" * (200 * 1024 * 1024)',
      'children = []',
      'for i in range(3):',
      '    p = subprocess.Popen([sys.executable, "-c", "import time\\nmine = b\'y\' * (100 * 1024 * 1024)\\nprint(1, flush=True)\\ntime.sleep(60)"], stdout=subprocess.PIPE)',
      '    p.stdout.readline()',
      '    children.append(p)',
      'print("survived")',
    ].join('\n');
    const r = await sup.execute('oom', 'python', code);
    expect(r.status).toBe('died');
    expect(r.died!.cause).toEqual({ kind: 'out_of_memory', limitMiB: LIMIT_MIB });
    expect(r.died!.reason).toMatch(/ran out of memory: its processes together reached the 400 MiB limit.*OPENAI4S_KERNEL_MEMORY_MB/);
    const slot = sup.status('oom').slots.find((s) => s.language === 'python')!;
    expect(slot.cause).toEqual({ kind: 'ended', generation: r.generation, exit: { kind: 'out_of_memory', limitMiB: LIMIT_MIB } });
    // The next cell starts a new generation, as after any death.
    const next = await sup.execute('oom', 'python', 'print(1)');
    expect(next).toMatchObject({ status: 'ok', stdout: '1\n' });
    expect(next.generation).not.toBe(r.generation);
  }, 90_000);
});

describe('the OOM count of a kernel cgroup', () => {
  it('is read from memory.events (v2) or memory.oom_control (v1), and is 0 without a memory cgroup or once it is gone', () => {
    for (const [version, file] of [['v2', 'memory.events'], ['v1', 'memory.oom_control']] as const) {
      const base = fs.mkdtempSync(path.join(os.tmpdir(), `oai4s-cg-${version}-`));
      const cgroup = createKernelCgroup({ controllers: { memory: { version, base } }, reasons: [] }, 'k1', { processes: 0, memoryMiB: 512 })!;
      expect(cgroup.memoryMiB).toBe(512);
      expect(cgroup.oomKills()).toBe(0);
      fs.writeFileSync(path.join(base, 'k1', file), version === 'v2' ? 'low 0\nhigh 0\nmax 4\noom 1\noom_kill 1\n' : 'oom_kill_disable 0\nunder_oom 0\noom_kill 2\n');
      expect(cgroup.oomKills()).toBe(version === 'v2' ? 1 : 2);
      fs.rmSync(base, { recursive: true });
      expect(cgroup.oomKills()).toBe(0);
    }
    const pidsOnly = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-cg-pids-'));
    const cgroup = createKernelCgroup({ controllers: { pids: { version: 'v2', base: pidsOnly } }, reasons: [] }, 'k2', { processes: 64, memoryMiB: 512 })!;
    expect([cgroup.memoryMiB, cgroup.oomKills()]).toEqual([null, 0]);
    fs.rmSync(pidsOnly, { recursive: true });
  });
});
