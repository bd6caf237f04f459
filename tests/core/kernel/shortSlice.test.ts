import fs from 'node:fs';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from './helpers';

/**
 * A cell that makes host calls asks Linux for the shortest time slice while it runs
 * (kernel-workers/python/worker.py `_sched_slice`), so the answer's wake-up preempts
 * whatever holds its CPU; the cell's end gives the default back. Custom slices exist since
 * Linux 6.12; /proc/<tid>/sched shows the slice as `se.slice`.
 */
function kernelHasCustomSlices(): boolean {
  const [major = 0, minor = 0] = os.release().split('.').map((part) => Number.parseInt(part, 10));
  if (major < 6 || (major === 6 && minor < 12)) return false;
  try {
    return /^se\.slice\s/m.test(fs.readFileSync('/proc/thread-self/sched', 'utf8'));
  } catch {
    return false;
  }
}

const { sup } = makeSupervisor({ host: { call: (_method, args) => ({ echoed: args }) } });
afterAll(() => sup.close());

// Reads this thread's slice (ns), nice value and policy inside the sandbox.
const PROBE = `import json, os
def sched():
    for line in open("/proc/thread-self/sched"):
        if line.startswith("se.slice"):
            slice_ns = int(line.split(":")[1])
            break
    else:
        slice_ns = None
    raw = os.sched_getscheduler(0)
    return {"slice": slice_ns, "nice": os.getpriority(os.PRIO_PROCESS, 0), "policy": raw & ~0x40000000, "resetOnFork": bool(raw & 0x40000000)}
`;

describe('python kernel: the time slice of a cell that makes host calls', () => {
  it.skipIf(!kernelHasCustomSlices())('is the shortest while the cell runs and the default again after it, with the nice value and policy kept', async () => {
    const first = await sup.execute('s1', 'python', `${PROBE}os.nice(3)\nbefore = sched()\nhost.call("echo", n=1)\nprint(json.dumps([before, sched()]))`);
    expect(first.status).toBe('ok');
    const [before, during] = JSON.parse(first.stdout) as { slice: number; nice: number; policy: number }[];
    expect(before!.slice).toBeGreaterThan(100_000);
    expect(during).toEqual({ slice: 100_000, nice: 3, policy: 0, resetOnFork: true });
    const after = await sup.execute('s1', 'python', 'print(json.dumps(sched()))');
    // Reset-on-fork stays: only a privileged thread may clear it (a child starts with the default slice).
    expect(JSON.parse(after.stdout)).toEqual({ slice: before!.slice, nice: 3, policy: 0, resetOnFork: true });
  });

  it.skipIf(!kernelHasCustomSlices())('leaves a thread the cell moved to SCHED_IDLE as it is, and SCHED_BATCH keeps its policy', async () => {
    const idle = await sup.execute('s2', 'python', `${PROBE}os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))\nbefore = sched()\nhost.call("echo", n=1)\nprint(json.dumps([before, sched()]))`);
    const [idleBefore, idleDuring] = JSON.parse(idle.stdout) as unknown[];
    expect(idleDuring).toEqual(idleBefore);
    const batch = await sup.execute('s3', 'python', `${PROBE}os.sched_setscheduler(0, os.SCHED_BATCH, os.sched_param(0))\nhost.call("echo", n=1)\nprint(json.dumps(sched()))`);
    expect(JSON.parse(batch.stdout)).toMatchObject({ slice: 100_000, policy: 3, resetOnFork: true });
  });

  it.skipIf(!kernelHasCustomSlices())('is asked for by the thread that makes the call: a thread of the cell gets it, the cell’s own thread keeps the default', async () => {
    const code = `${PROBE}import threading\nseen = {}\ndef work():\n    host.call("echo", n=2)\n    seen["thread"] = sched()\nt = threading.Thread(target=work)\nt.start(); t.join()\nprint(json.dumps([seen["thread"], sched()]))`;
    const r = await sup.execute('s4', 'python', code);
    expect(r.status).toBe('ok');
    const [thread, main] = JSON.parse(r.stdout) as { slice: number }[];
    expect(thread!.slice).toBe(100_000);
    expect(main!.slice).toBeGreaterThan(100_000);
  });

  it.skipIf(!kernelHasCustomSlices())('is not inherited: a thread or a process the cell starts after a host call has the default slice', async () => {
    const code = `${PROBE}import subprocess, sys, threading\nhost.call("echo", n=3)\nmine = sched()\nseen = {}\nt = threading.Thread(target=lambda: seen.update(thread=sched()))\nt.start(); t.join()\nchild = subprocess.run([sys.executable, "-c", "print(open('/proc/thread-self/sched').read())"], capture_output=True, text=True).stdout\nchild_slice = int(next(l for l in child.splitlines() if l.startswith("se.slice")).split(":")[1])\nprint(json.dumps([mine, seen["thread"], child_slice]))`;
    const r = await sup.execute('s5', 'python', code);
    expect(r.status).toBe('ok');
    const [mine, thread, child] = JSON.parse(r.stdout) as [{ slice: number }, { slice: number; resetOnFork: boolean }, number];
    expect(mine.slice).toBe(100_000);
    expect(thread.slice).toBeGreaterThan(100_000);
    expect(thread.resetOnFork).toBe(false);
    expect(child).toBeGreaterThan(100_000);
  });
});
