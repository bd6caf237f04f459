import type { KernelLanguage, KernelSlotCause } from '../../../src-preload/contract/kernel';
import type { CellDeadline } from './cellDeadline';
import type { KernelProcess } from './kernelProcess';
import { markSlotDead } from './slotCause';

/** One session's kernel of one language: its current generation and what its cells are doing. */
export interface Slot {
  language: KernelLanguage;
  proc: KernelProcess | null;
  /** Cells of a slot run one at a time: each waits for this. */
  chain: Promise<unknown>;
  cells: number;
  busy: boolean;
  startFailures: number;
  /** Why nothing may start in it until it is restarted (crash loop, session closed). */
  dead: string | null;
  deadCause?: KernelSlotCause;
  /** Why its last generation ended, said in its status (in English, and by case). */
  reason?: string;
  cause?: KernelSlotCause;
  interrupt: ((graceMs: number) => void) | null;
  /** The running cell's wall-clock limit, when it has one. */
  deadline?: CellDeadline | null;
  idleTimer: NodeJS.Timeout | null;
  starting: boolean;
  /** Set when its session was closed (deleted): nothing may start in it again. */
  closed?: boolean;
}

/** Slots by session, then language; created on a session's first cell. */
export type SlotTable = Map<string, Map<KernelLanguage, Slot>>;

export function emptySlot(language: KernelLanguage): Slot {
  return { language, proc: null, chain: Promise.resolve(), cells: 0, busy: false, startFailures: 0, dead: null, interrupt: null, idleTimer: null, starting: false };
}

/** The session's slot for `language`, created when missing. */
export function slotIn(table: SlotTable, sessionId: string, language: KernelLanguage): Slot {
  let slots = table.get(sessionId);
  if (!slots) table.set(sessionId, (slots = new Map()));
  let slot = slots.get(language);
  if (!slot) {
    slot = emptySlot(language);
    slots.set(language, slot);
  }
  return slot;
}

/** Marks the slot closed with its session; returns its running generation (to stop), if any. */
export function closeSlot(slot: Slot): KernelProcess | null {
  slot.closed = true;
  markSlotDead(slot, { kind: 'session_closed' });
  if (slot.idleTimer) clearTimeout(slot.idleTimer);
  slot.idleTimer = null;
  slot.interrupt = null;
  slot.deadline = null;
  const proc = slot.proc;
  slot.proc = null;
  return proc;
}
