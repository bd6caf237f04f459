import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KernelSupervisor } from '../../src-main/core/kernel/supervisor';
import { schedSince, threadSched } from '../support/threadSched';
import type { BenchRow, BenchSuite } from '../types';

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

/**
 * Sandboxed kernels (real bwrap, /usr/bin/python3) driven by a bare KernelSupervisor:
 * start, round trip, host RPC, output. The round-trip and host-call rows here are the
 * kernel layer alone; the production-path rows are in the cellRoundTrip and hostCalls suites.
 */
const suite: BenchSuite = {
  name: 'kernel',
  async run() {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-kbench-'));
    const sup = new KernelSupervisor({
      dataDir,
      processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin' },
      sandboxMode: () => 'auto',
      idleShutdownMs: 0,
      prewarm: ['python'],
      host: { call: (_m, args) => args },
    });
    const rows: BenchRow[] = [];
    try {
      // The read-only kernel cache (font lists): a trusted build, once per app start when missing or stale.
      let t = performance.now();
      await sup.prepareKernelCache();
      rows.push({ metric: 'kernel cache build (fresh data dir)', value: performance.now() - t, unit: 'ms' });
      t = performance.now();
      await sup.execute('cold', 'python', 'pass');
      const cold = performance.now() - t;
      rows.push({ metric: 'sandboxed cold start to first result', value: cold, unit: 'ms', target: '≤ 100 ms', met: cold <= 100 });
      // One sample is at the mercy of the moment; five more (each a new session, no spare,
      // its kernel stopped after) say how steady it is. The first also pays for this
      // process's first kernel start (the app's code run for the first time).
      const more: number[] = [];
      for (let i = 0; i < 5; i++) {
        t = performance.now();
        await sup.execute(`cold-${i}`, 'python', 'pass');
        more.push(performance.now() - t);
        await sup.closeSession(`cold-${i}`);
      }
      rows.push({ metric: 'sandboxed cold start, median of five more (new sessions, no spare)', value: percentile([...more].sort((a, b) => a - b), 50), unit: 'ms' });
      t = performance.now();
      await sup.execute('cold-sci', 'python', 'import numpy, pandas, matplotlib.pyplot');
      rows.push({ metric: 'cold start + science imports', value: performance.now() - t, unit: 'ms' });
      sup.openSession('warm');
      await new Promise((r) => setTimeout(r, 4_000)); // a session is usually open a while before its first cell
      t = performance.now();
      await sup.execute('warm', 'python', 'import numpy as np, pandas as pd, matplotlib.pyplot as plt\nnp.arange(3).sum()');
      const first = performance.now() - t;
      rows.push({ metric: 'first science cell with pre-warming', value: first, unit: 'ms', target: '≤ 300 ms', met: first <= 300 });
      // The replacement spare starts 2 s after a hand-over and imports the science stack:
      // let it finish, so the steady-state rows below do not time a concurrent import.
      await new Promise((r) => setTimeout(r, 2_500));
      await sup.sparesSettled();
      const times: number[] = [];
      const sched0 = threadSched();
      for (let i = 0; i < 1_000; i++) {
        const s = performance.now();
        await sup.execute('cold', 'python', 'pass');
        times.push(performance.now() - s);
      }
      const used = schedSince(sched0);
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      rows.push({ metric: 'internal layer: trivial cell round trip p50 (KernelSupervisor alone; production row in cellRoundTrip)', value: p50, unit: 'ms' });
      rows.push({ metric: 'internal layer: trivial cell round trip p95 (KernelSupervisor alone)', value: percentile(times, 95), unit: 'ms' });
      if (used) rows.push({ metric: 'internal layer: main-thread CPU per trivial cell (KernelSupervisor alone; /proc/thread-self/schedstat)', value: used.onCpuUs / times.length, unit: 'us/cell' });
      const n = 5_000;
      const rpc = await sup.execute('cold', 'python', `import time\nt = time.perf_counter()\nfor i in range(${n}):\n    host.call("echo", i=i)\nprint(time.perf_counter() - t)`);
      const perSec = n / Number(rpc.stdout.trim());
      rows.push({ metric: 'internal layer: host calls from a cell to an echo host (no dispatcher, permissions or audit; production row in hostCalls)', value: Math.round(perSec), unit: 'calls/s' });
      t = performance.now();
      await sup.execute('cold', 'python', 'import sys\nsys.stdout.write("z" * 1_000_000)');
      rows.push({ metric: '1 MB stdout as one write', value: performance.now() - t, unit: 'ms' });
      t = performance.now();
      await sup.execute('cold', 'python', 'for _ in range(10_000):\n    print("z" * 99)');
      const prints = performance.now() - t;
      rows.push({ metric: '1 MB stdout as 10k prints', value: prints, unit: 'ms', target: '≤ 50 ms', met: prints <= 50 });
    } finally {
      await sup.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    return rows;
  },
};
export default suite;
