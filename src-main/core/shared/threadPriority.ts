import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';

/**
 * Thread priorities on Linux, where each thread is a task of its own with its own nice
 * value (elsewhere nothing here is possible per thread, and every function does nothing).
 * Under contention for the CPUs the main thread goes first: in Electron it is the main
 * process's event loop, which serves the window's IPC and publishes a run's stream.
 */

/** The calling thread's id (its task id under /proc), or null where there is none. */
export function currentThreadId(): number | null {
  try {
    const tid = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    return Number.isInteger(tid) ? tid : null;
  } catch {
    return null;
  }
}

/** A thread's command name and nice value (Linux: /proc/self/task/<tid>/stat), or null once it has ended. */
export function threadInfo(tid: number): { name: string; nice: number } | null {
  try {
    const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The name is in parentheses and may hold spaces; after it, state is field 3 and nice field 19.
    const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
    return { name, nice: Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]) };
  } catch {
    return null;
  }
}

/** Sets a thread's nice value; false where that is not possible (no such thread, not allowed, not Linux). */
export function setThreadNice(tid: number, nice: number): boolean {
  if (process.platform !== 'linux') return false;
  try {
    os.setPriority(tid, nice);
    return true;
  } catch {
    return false;
  }
}

/**
 * The nice value of the process's helper threads (V8's compiler and garbage-collector
 * workers). Measured in the streaming bench (a run streaming 50,000 deltas, 2-vCPU VM,
 * interleaved runs): while V8 still compiles the app's code, these threads kept the main
 * thread runnable but waiting for a CPU for 77-110 ms of a 0.8 s run at nice 0, 27-65 ms at
 * nice 10; the event-loop lag p99 was lower in 6 of 7 runs at 19 and all 3 at 10 (medians:
 * 5.6 ms at 0, 4.9 at 19, 4.7 at 10), at the same chunk rate. Not 19: a helper that must
 * also yield to other processes (a kernel computing) would leave the app's code unoptimised
 * for longer.
 */
export const HELPER_THREAD_NICE = 10;

/**
 * Lowers the priority of the helper threads that exist now, called by the main thread at
 * start. They are the threads named as the main thread is, other than itself: threads the
 * runtime started without a name of their own (in Node 20 every thread has the process's
 * name; in Electron, Chromium names its threads, its I/O thread among them, and they keep
 * their priority). Threads started later (the app's worker threads) have the main thread's
 * priority, and a thread already below the target stays where it is. libuv's pool threads
 * (the main thread's asynchronous file and DNS work) have no name of their own either: in
 * Node 20 they start at the first such call, and if that came before this one they are
 * lowered too, so under contention that work waits behind the main thread's as well (not
 * measured; in the bench they start later). Returns how many threads were lowered; 0 when
 * called from another thread than the main one.
 */
export function yieldHelperThreads(nice: number = HELPER_THREAD_NICE): number {
  if (process.platform !== 'linux') return 0;
  const main = currentThreadId();
  if (main === null || main !== process.pid) return 0;
  const mainName = threadInfo(main)?.name;
  let lowered = 0;
  let tids: string[];
  try {
    tids = fs.readdirSync('/proc/self/task');
  } catch {
    return 0;
  }
  for (const entry of tids) {
    const tid = Number(entry);
    if (tid === main) continue;
    const info = threadInfo(tid);
    if (!info || info.name !== mainName || info.nice >= nice) continue;
    if (setThreadNice(tid, nice)) lowered++;
  }
  return lowered;
}

/**
 * The time slice the app's main thread asks for: the shortest Linux grants a fair thread
 * (6.12+, EEVDF; the default on the 2-vCPU bench VM is 1.4 ms). A woken thread whose slice
 * is shorter than the running one's takes the CPU at once, instead of waiting for that
 * thread's slice to end. Measured in the streaming bench (a run streaming 50,000 deltas,
 * ten interleaved pairs): the main thread's time runnable but waiting for a CPU fell in
 * all ten (for example 64 -> 25 ms and 73 -> 24 ms of a 0.6 s run), and the event-loop lag
 * p99 in eight (4.5 -> 3.4 ms, 5.3 -> 3.7 ms). The kernel's worker asks for the same
 * around host calls (kernel-workers/README.md).
 */
export const SHORT_SLICE_NS = 100_000;

export type SliceOutcome = 'set' | 'ignored' | 'unsupported' | 'failed';

/**
 * Sets a fair thread's slice (argv: tid, ns) with `sched_setattr`, which Node has no call
 * for. Its nice value and policy are passed back as they are; a real-time or idle thread
 * is left alone. The flag reset-on-fork (0x01) keeps the slice the thread's own: threads
 * and processes it starts later (the app's worker threads, the kernels) begin with the
 * default. Exit 3: not possible here; 5: the kernel took the call but has no custom
 * slices (before 6.12).
 */
const SLICE_SCRIPT = `import ctypes, os, struct, sys
nr = {"x86_64": 314, "aarch64": 274}.get(os.uname().machine)
tid, ns = int(sys.argv[1]), int(sys.argv[2])
policy = os.sched_getscheduler(tid) & ~0x40000000
if nr is None or policy not in (os.SCHED_OTHER, os.SCHED_BATCH):
    sys.exit(3)
nice = os.getpriority(os.PRIO_PROCESS, tid)
attr = ctypes.create_string_buffer(struct.pack("IIQiIQQQ", 48, policy, 1, nice, 0, ns, 0, 0), 48)
if ctypes.CDLL(None, use_errno=True).syscall(nr, tid, attr, 0) != 0:
    sys.exit(4)
with open("/proc/%d/sched" % tid) as f:
    now = [int(line.split(":")[1]) for line in f if line.startswith("se.slice")]
sys.exit(0 if now == [ns] else 5)
`;

const EXIT_OUTCOME: Record<number, SliceOutcome> = { 0: 'set', 3: 'unsupported', 5: 'ignored' };

/**
 * Asks for `ns` as the slice of thread `tid` (the app asks for its own), through a one-shot
 * `interpreter` (Python 3; its standard library's ctypes makes the call). Resolves with
 * what happened; never rejects. Elsewhere than Linux: 'unsupported'.
 */
export function askShortSlice(tid: number, interpreter: string, ns: number = SHORT_SLICE_NS): Promise<SliceOutcome> {
  if (process.platform !== 'linux') return Promise.resolve('unsupported');
  return new Promise((resolve) => {
    try {
      // -I -S: no environment variables, user site or site-packages are consulted; no environment is passed either.
      const child = spawn(interpreter, ['-I', '-S', '-c', SLICE_SCRIPT, String(tid), String(ns)], { stdio: 'ignore', env: {} });
      child.once('error', () => resolve('failed'));
      child.once('exit', (code) => resolve(EXIT_OUTCOME[code ?? -1] ?? 'failed'));
      // A short-lived process (a CLI command) does not wait for it.
      child.unref();
    } catch {
      resolve('failed');
    }
  });
}

let mainThreadAsked: Promise<SliceOutcome> | null = null;

/**
 * The main thread asks for the short slice, once per process (later calls get the first
 * answer). Called by the app's long-lived main process at start (createCore's
 * `mainThreadSlice`), not by CLI commands; from another thread it does nothing.
 */
export function askMainThreadShortSlice(interpreter: string | null): Promise<SliceOutcome> {
  if (process.platform !== 'linux' || !interpreter || currentThreadId() !== process.pid) return Promise.resolve('unsupported');
  return (mainThreadAsked ??= askShortSlice(process.pid, interpreter));
}
