import os from 'node:os';

/** How a worker process ended. */
export interface ExitInfo {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** In words, for the user. */
  reason: string;
}

const SIGNAL_NAMES = Object.fromEntries(Object.entries(os.constants.signals).map(([k, v]) => [v, k]));

export function describeExit(code: number | null, signal: NodeJS.Signals | null, sandboxed: boolean): string {
  if (signal) return `killed by ${signal}`;
  // bwrap reports a child killed by signal N as exit code 128+N.
  if (sandboxed && code !== null && code > 128 && SIGNAL_NAMES[code - 128]) return `killed by ${SIGNAL_NAMES[code - 128]}`;
  return `exited with code ${code}`;
}
