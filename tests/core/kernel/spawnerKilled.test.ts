import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { KernelSupervisor } from '../../../src-main/core/kernel/supervisor';
import { hostProcessesMatching, makeSupervisor, waitFor } from './helpers';

let sup: KernelSupervisor | null = null;
afterEach(async () => {
  await sup?.close();
  sup = null;
});

/** The spawner of this test file's process: its child run as `python3 -I -S -c <source>` (other files run in other processes). */
function spawnerPids(): number[] {
  const parentOf = (pid: number) => Number(fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')[1]);
  return hostProcessesMatching('-I -S -c').filter((pid) => {
    try {
      return parentOf(pid) === process.pid;
    } catch {
      return false; // gone meanwhile
    }
  });
}

describe.skipIf(process.platform !== 'linux')('the spawner killed with SIGKILL while its kernel runs', () => {
  it('ends that sandbox, says the kernel died, and the next cell runs in a new kernel', async () => {
    ({ sup } = makeSupervisor());
    await sup.prepareKernelCache();
    // The spawner starts with the first preparation; a kernel started before it is ready goes through Node's spawn.
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const first = await sup.execute('s1', 'python', 'x = 41\nprint("fd3 is a", "pipe" if __import__("stat").S_ISFIFO(__import__("os").fstat(3).st_mode) else "socket")');
    expect(first.error ?? null).toBeNull();
    expect(first.stdout.trim()).toBe('fd3 is a pipe'); // the spawner started it
    const seconds = String(4_000 + Math.floor(Math.random() * 5_000));
    await sup.execute('s1', 'python', `import subprocess\nsubprocess.Popen(['sleep', '${seconds}'])`);
    expect(hostProcessesMatching(`sleep ${seconds}`)).toHaveLength(1);
    const before = spawnerPids();
    expect(before.length).toBeGreaterThan(0);
    for (const pid of before) process.kill(pid, 'SIGKILL');
    // bwrap dies with its parent, and the sandbox (the cell's sleeper too) with it.
    expect(await waitFor(() => hostProcessesMatching(`sleep ${seconds}`).length === 0, 10_000)).toBe(true);
    // The app hears of the end when bwrap's pipes close, which may come a moment after the
    // sandbox's processes are gone (later still on a loaded machine); a cell sent in between
    // goes to the dying kernel and ends as died. The kernel's panel says so once it is heard.
    const python = () => sup!.status('s1').slots.find((s) => s.language === 'python')!;
    expect(await waitFor(() => python().state === 'none', 10_000)).toBe(true);
    expect(python().reason).toMatch(/killed by SIGKILL; its variables are gone/);
    const next = await sup.execute('s1', 'python', 'print(globals().get("x"))');
    // A new kernel: the variable is gone, and the cell ran.
    expect(next.error ?? null).toBeNull();
    expect(next.stdout.trim()).toBe('None');
    expect(next.generation).not.toBe(first.generation);
  }, 60_000);
});
