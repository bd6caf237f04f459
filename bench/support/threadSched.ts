import fs from 'node:fs';

/** The calling thread's scheduler counters (Linux `/proc/thread-self/schedstat`), in ns. */
export interface ThreadSched {
  /** Time the thread ran on a CPU (exact, not sampled at ticks as /proc/.../stat is). */
  onCpuNs: number;
  /** Time it was runnable but waited for a CPU. */
  waitNs: number;
}

/** The calling thread's counters now, or null where the file does not exist (not Linux). */
export function threadSched(): ThreadSched | null {
  try {
    const [onCpu, wait] = fs.readFileSync('/proc/thread-self/schedstat', 'utf8').trim().split(' ');
    return { onCpuNs: Number(onCpu), waitNs: Number(wait) };
  } catch {
    return null;
  }
}

/** What the calling thread used since `start` (on CPU in us, waiting for a CPU in ms), or null where it cannot be read. */
export function schedSince(start: ThreadSched | null): { onCpuUs: number; waitMs: number } | null {
  const now = threadSched();
  if (!start || !now) return null;
  return { onCpuUs: (now.onCpuNs - start.onCpuNs) / 1e3, waitMs: (now.waitNs - start.waitNs) / 1e6 };
}
