import type { Readable, Writable } from 'node:stream';
import type { ExitInfo } from './exitInfo';

/** The part of a child process the kernel code uses: Node's ChildProcess has it, and so does a spawner's child. */
export interface ChildLike {
  readonly pid?: number | undefined;
  readonly stdio: ReadonlyArray<Readable | Writable | null | undefined>;
  kill(signal?: NodeJS.Signals): boolean;
  on(event: 'error', listener: (error: Error) => void): this;
  on(event: 'exit' | 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
  once(event: 'error', listener: (error: Error) => void): this;
  once(event: 'exit' | 'close', listener: (code: number | null, signal: NodeJS.Signals | null) => void): this;
}

/** SIGKILL to process group `pid`, or to the process alone when it leads no group (or is gone). */
export function killGroupOrProcess(pid: number): void {
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** SIGKILL to the whole process group: the sandbox, the worker and anything it started. */
export function killProcessGroup(child: ChildLike): void {
  if (child.pid) killGroupOrProcess(child.pid);
}

/** Asks the worker to leave (`ask`), then kills it if it has not exited within `graceMs`. */
export async function stopWithGrace(stop: { ask(): void; kill(): void; exited: Promise<ExitInfo> }, graceMs: number): Promise<ExitInfo> {
  stop.ask();
  const timer = setTimeout(() => stop.kill(), graceMs);
  const info = await stop.exited;
  clearTimeout(timer);
  return info;
}
