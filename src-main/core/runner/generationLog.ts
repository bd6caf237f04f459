import type { EventBus } from '../events/bus';
import type { Ledger } from '../ledger/ledger';

/**
 * Writes kernel generations to the ledger as the supervisor reports them: a start
 * (with the sandbox it got) and an end (died, restarted, idle shutdown, app closed), under
 * the supervisor's own generation id. Kernels of ids that are not ledger sessions (a
 * CLI `kernel exec`) are not recorded.
 */
export function recordKernelGenerations(events: EventBus, ledger: () => Ledger): { closeAll(reason: string): void; size(): number } {
  const open = new Set<string>();
  // Set once the app is shutting down: the kernels it stops end for that reason, not as deaths.
  let closing: string | null = null;
  events.on('kernel.lifecycle', (e) => {
    const l = ledger();
    if (e.kind === 'started') {
      if (!l.sessions.find(e.sessionId)) return;
      l.kernels.start(e.sessionId, e.language, null, { sandbox: e.sandbox ?? null }, e.generation);
      open.add(e.generation);
      return;
    }
    if (!open.delete(e.generation)) return;
    l.kernels.end(e.generation, closing ?? (e.kind === 'died' ? `died: ${e.reason ?? 'unknown'}` : e.kind.replace('_', ' ')));
  });
  return {
    /** Call before stopping the kernels; ends what is still open with `reason`. */
    closeAll(reason) {
      closing = reason;
      if (!open.size) return;
      const l = ledger();
      for (const id of open) l.kernels.end(id, reason);
      open.clear();
    },
    /** Generations still open (diagnostics and the lifecycle test). */
    size: () => open.size,
  };
}
