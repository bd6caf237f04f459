import os from 'node:os';
import type { KernelExitCause } from '../../../src-preload/contract/kernel';

/** How a worker process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** In words, for the user. */
  reason: string;
  /** The same by case, for the window's language. */
  cause: KernelExitCause;
}

const SIGNAL_NAMES = Object.fromEntries(Object.entries(os.constants.signals).map(([k, v]) => [v, k]));

/** The case of a worker's end: a signal (bwrap reports a child killed by signal N as exit code 128+N) or an exit code. */
export function exitCause(code: number | null, signal: NodeJS.Signals | null, sandboxed: boolean): KernelExitCause {
  if (signal) return { kind: 'signal', signal };
  if (sandboxed && code !== null && code > 128 && SIGNAL_NAMES[code - 128]) return { kind: 'signal', signal: SIGNAL_NAMES[code - 128]! };
  return { kind: 'exit', code };
}

/** A SIGKILL while the kernel's memory cgroup counted an OOM kill: it ran out of memory. */
export function withOutOfMemory(cause: KernelExitCause, oomKills: number, limitMiB: number | null): KernelExitCause {
  if (cause.kind === 'signal' && cause.signal === 'SIGKILL' && oomKills > 0 && limitMiB) return { kind: 'out_of_memory', limitMiB };
  return cause;
}

/** A worker's end in English words (the model, the CLI, logs). */
export function exitText(cause: KernelExitCause): string {
  switch (cause.kind) {
    case 'signal':
      return `killed by ${cause.signal}`;
    case 'exit':
      return `exited with code ${cause.code}`;
    case 'spawn_failed':
      return `could not start ${cause.file}: ${cause.message}`;
    case 'interrupt_unheeded':
      return `did not stop within ${cause.graceMs} ms of the interrupt and was killed`;
    case 'out_of_memory':
      return `ran out of memory: its processes together reached the ${cause.limitMiB} MiB limit and it was killed (OPENAI4S_KERNEL_MEMORY_MB raises the limit)`;
    case 'frame_too_large':
      return `was stopped: it sent the app one message over ${cause.limitMiB} MiB (write large results to a file in the workspace instead)`;
  }
}
