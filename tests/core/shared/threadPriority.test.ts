import fs from 'node:fs';
import { Worker } from 'node:worker_threads';
import { describe, expect, it } from 'vitest';
import { HELPER_THREAD_NICE, currentThreadId, threadInfo, yieldHelperThreads } from '../../../src-main/core/shared/threadPriority';

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
