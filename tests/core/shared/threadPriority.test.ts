import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HELPER_THREAD_NICE, SHORT_SLICE_NS, askMainThreadShortSlice, askShortSlice, currentThreadId, threadInfo, yieldHelperThreads } from '../../../src-main/core/shared/threadPriority';

function threads(): Map<number, { name: string; nice: number }> {
  const all = new Map<number, { name: string; nice: number }>();
  for (const entry of fs.readdirSync('/proc/self/task')) {
    const info = threadInfo(Number(entry));
    if (info) all.set(Number(entry), info);
  }
  return all;
}

/** A worker thread's own id and nice value, as it reads them itself. */
async function workerNice(): Promise<{ tid: number; nice: number }> {
  const code = `
    const fs = require('node:fs');
    const { parentPort } = require('node:worker_threads');
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    const stat = fs.readFileSync('/proc/thread-self/stat', 'utf8');
    parentPort.postMessage({ tid, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) });`;
  const worker = new Worker(code, { eval: true });
  try {
    return await new Promise((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

describe.runIf(process.platform === 'linux')('helper threads yield to the main thread', () => {
  it('the unnamed helper threads go to the helper nice; the main thread, a thread already lower and a worker started later keep theirs', async () => {
    const main = currentThreadId()!;
    expect(main).toBe(process.pid);
    const before = threads();
    const mainBefore = before.get(main)!;
    const helpers = [...before].filter(([tid, t]) => tid !== main && t.name === mainBefore.name).map(([tid]) => tid);
    expect(helpers.length).toBeGreaterThan(0); // V8's platform workers at least
    const lowered = yieldHelperThreads();
    expect(lowered).toBeGreaterThan(0);
    const after = threads();
    expect(after.get(main)!.nice).toBe(mainBefore.nice);
    for (const tid of helpers) if (after.has(tid)) expect(after.get(tid)!.nice).toBe(Math.max(HELPER_THREAD_NICE, before.get(tid)!.nice));
    // Threads with names of their own are not the runtime's helpers: untouched.
    for (const [tid, t] of before) if (t.name !== mainBefore.name && after.has(tid)) expect(after.get(tid)!.nice).toBe(t.nice);
    // Nothing left to lower: a second call changes nothing.
    expect(yieldHelperThreads()).toBe(0);
    // A thread started afterwards (the app's worker threads) has the main thread's priority.
    expect((await workerNice()).nice).toBe(mainBefore.nice);
  });

  it('a thread already at a lower priority than the helpers’ is left there', () => {
    const main = currentThreadId()!;
    const name = threadInfo(main)!.name;
    const low = [...threads()].find(([tid, t]) => tid !== main && t.name === name)![0];
    yieldHelperThreads(19);
    expect(threadInfo(low)!.nice).toBe(19);
    yieldHelperThreads(HELPER_THREAD_NICE);
    expect(threadInfo(low)!.nice).toBe(19);
  });
});

/** Custom slices exist since Linux 6.12; /proc/<tid>/sched shows a thread's as `se.slice`. */
function kernelHasCustomSlices(): boolean {
  const [major = 0, minor = 0] = os.release().split('.').map((part) => Number.parseInt(part, 10));
  if (process.platform !== 'linux' || major < 6 || (major === 6 && minor < 12)) return false;
  try {
    return /^se\.slice\s/m.test(fs.readFileSync('/proc/thread-self/sched', 'utf8'));
  } catch {
    return false;
  }
}

const PYTHON = '/usr/bin/python3';

/**
 * A Python process that waits for a line on stdin, then reports its own slice, nice value
 * and policy (reset-on-fork apart), and the slice of a thread and of a process it starts then.
 */
function target(setup: string) {
  const code = `import json, os, subprocess, sys, threading
${setup}
def slice_of(path):  # None for an idle thread (its sched file has no slice)
    return next((int(l.split(":")[1]) for l in open(path) if l.startswith("se.slice")), None)
sys.stdout.write("ready\\n"); sys.stdout.flush()
sys.stdin.readline()
seen = {}
t = threading.Thread(target=lambda: seen.update(thread=slice_of("/proc/thread-self/sched")))
t.start(); t.join()
child = subprocess.run([sys.executable, "-c", "print(next((l.split(':')[1] for l in open('/proc/self/sched') if l.startswith('se.slice')), 'null'))"], capture_output=True, text=True).stdout
raw = os.sched_getscheduler(0)
print(json.dumps({"slice": slice_of("/proc/thread-self/sched"), "nice": os.getpriority(os.PRIO_PROCESS, 0), "policy": raw & ~0x40000000, "resetOnFork": bool(raw & 0x40000000), "thread": seen["thread"], "child": json.loads(child)}))
`;
  const child = spawn(PYTHON, ['-c', code], { stdio: ['pipe', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const ready = new Promise<void>((resolve) => {
    const check = () => (out.startsWith('ready\n') ? resolve() : setTimeout(check, 5));
    check();
  });
  return {
    pid: child.pid!,
    ready,
    async report(): Promise<{ slice: number | null; nice: number; policy: number; resetOnFork: boolean; thread: number | null; child: number | null }> {
      child.stdin.end('go\n');
      await new Promise((resolve) => child.once('exit', resolve));
      return JSON.parse(out.slice('ready\n'.length)) as never;
    },
  };
}

describe('the app’s main thread asks for the shortest time slice', () => {
  it.skipIf(!kernelHasCustomSlices() || !fs.existsSync(PYTHON))('a fair thread gets it with its nice value and policy kept; the threads and processes it starts later get the default', async () => {
    const t = target('os.nice(5)');
    await t.ready;
    expect(await askShortSlice(t.pid, PYTHON)).toBe('set');
    const seen = await t.report();
    expect(seen).toMatchObject({ slice: SHORT_SLICE_NS, nice: 5, policy: 0, resetOnFork: true });
    expect(seen.thread).toBeGreaterThan(SHORT_SLICE_NS);
    expect(seen.child).toBeGreaterThan(SHORT_SLICE_NS);
  });

  it.skipIf(!kernelHasCustomSlices() || !fs.existsSync(PYTHON))('an idle thread is left as it is', async () => {
    const t = target('os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))');
    await t.ready;
    expect(await askShortSlice(t.pid, PYTHON)).toBe('unsupported');
    const seen = await t.report();
    expect(seen).toMatchObject({ slice: null, policy: 5, resetOnFork: false });
  });

  it('an interpreter that cannot run, or a thread that does not exist, is reported, not thrown', async () => {
    expect(await askShortSlice(process.pid, '/nonexistent/python3')).toBe(process.platform === 'linux' ? 'failed' : 'unsupported');
    if (fs.existsSync(PYTHON)) expect(await askShortSlice(2 ** 22 + 12_345, PYTHON)).toBe('failed');
  });

  it('is asked once per process: a second call gets the first answer', async () => {
    const first = askMainThreadShortSlice(null);
    expect(await first).toBe('unsupported');
    // Without an interpreter nothing is remembered; with one, both calls share one helper.
    const a = askMainThreadShortSlice(fs.existsSync(PYTHON) ? PYTHON : null);
    const b = askMainThreadShortSlice(fs.existsSync(PYTHON) ? PYTHON : null);
    if (fs.existsSync(PYTHON) && process.platform === 'linux') expect(b).toBe(a);
    expect(['set', 'ignored', 'unsupported']).toContain(await a);
  });
});
