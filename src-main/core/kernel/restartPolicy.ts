import { AppError } from '../../../src-preload/contract/errors';
import { errorMessage } from '../shared/errorMessage';
import type { KernelProcess } from './kernelProcess';
import { markSlotDead, noteSlotEnded } from './slotCause';
import type { Slot } from './slots';

export interface SlotStart {
  /** Consecutive start failures after which the slot is dead until restarted. */
  maxFailures: number;
  /** A warm spare now in the session's workspace, or null. */
  takeSpare: () => Promise<KernelProcess | null>;
  /** A fresh worker (not yet ready). */
  launch: () => Promise<KernelProcess>;
  /** Makes the ready worker the slot's generation. */
  adopt: (proc: KernelProcess) => KernelProcess;
}

/**
 * The slot's running worker, starting one if needed: a spare when there is one, else a
 * fresh start, retried until `maxFailures` starts in a row failed; then the slot is dead
 * (a crash loop) until the user restarts it.
 */
export async function ensureSlotProcess(slot: Slot, start: SlotStart): Promise<KernelProcess> {
  if (slot.proc?.alive) return slot.proc;
  slot.starting = true;
  try {
    const spare = await start.takeSpare();
    if (spare) return start.adopt(spare);
    let lastError = '';
    while (slot.startFailures < start.maxFailures) {
      const proc = await start.launch();
      try {
        await proc.ready;
        slot.startFailures = 0;
        return start.adopt(proc);
      } catch (error) {
        proc.kill();
        slot.startFailures++;
        lastError = errorMessage(error);
      }
    }
    throw new AppError('unavailable', markSlotDead(slot, { kind: 'crash_loop', failures: start.maxFailures, lastError: lastError || slot.reason || 'unknown' }));
  } finally {
    slot.starting = false;
  }
}

/** After `ms` without a cell the slot's generation is shut down (0: never); `onShutdown` hears of it. */
export function armIdleShutdown(slot: Slot, ms: number, onShutdown: (proc: KernelProcess) => void): void {
  if (!ms || !slot.proc) return;
  const proc = slot.proc;
  slot.idleTimer = setTimeout(() => {
    if (slot.busy || slot.proc !== proc) return;
    slot.proc = null;
    noteSlotEnded(slot, { kind: 'idle_shutdown', idleSeconds: Math.round(ms / 1000) });
    void proc.shutdown();
    onShutdown(proc);
  }, ms);
  slot.idleTimer.unref();
}

/** Clears a crash-loop stop and forgets the generation; returns it (to shut down), if any. */
export function resetForRestart(slot: Slot): KernelProcess | null {
  const proc = slot.proc;
  slot.proc = null;
  slot.dead = null;
  delete slot.deadCause;
  slot.startFailures = 0;
  slot.cells = 0;
  if (proc) noteSlotEnded(slot, { kind: 'restarted', generation: proc.generation });
  return proc;
}

/**
 * The generation was killed because its output did not end after a cell's result
 * (outputEnd.ts): the slot forgets it at once, so the next cell starts a new one instead
 * of waiting in a process whose end has not been seen yet. False if it was already replaced.
 */
export function forgetStuckGeneration(slot: Slot, proc: KernelProcess): boolean {
  if (slot.proc !== proc) return false;
  slot.proc = null;
  noteSlotEnded(slot, { kind: 'ended', generation: proc.generation, exit: { kind: 'signal', signal: 'SIGKILL' } });
  return true;
}
