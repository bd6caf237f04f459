import type { ExitInfo } from './exitInfo';
import type { ChildLike } from './spawner/spawner';

/** SIGKILL to the whole process group: the sandbox, the worker and anything it started. */
export function killProcessGroup(child: ChildLike): void {
  const pid = child.pid;
  if (!pid) return;
  try {
    process.kill(-pid, 'SIGKILL');
  } catch {
    // No such group (already gone, or the child never became a group leader): kill the child alone.
    try {
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
}

/** Asks the worker to leave (`ask`), then kills it if it has not exited within `graceMs`. */
export async function stopWithGrace(stop: { ask(): void; kill(): void; exited: Promise<ExitInfo> }, graceMs: number): Promise<ExitInfo> {
  stop.ask();
  const timer = setTimeout(() => stop.kill(), graceMs);
  const info = await stop.exited;
  clearTimeout(timer);
  return info;
}
