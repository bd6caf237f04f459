import type { KernelLanguage, KernelSlotStatus, KernelStatus } from '../../../src-preload/contract/kernel';
import { emptySlot, type Slot, type SlotTable } from './slots';

export const LANGUAGES: readonly KernelLanguage[] = ['python', 'r'];

/** What the UI shows of one slot: state, generation, sandbox, and why it last ended. */
export function slotStatus(slot: Slot): KernelSlotStatus {
  const proc = slot.proc?.alive ? slot.proc : null;
  const status: KernelSlotStatus = {
    language: slot.language,
    state: slot.dead ? 'dead' : slot.starting ? 'starting' : !proc ? 'none' : slot.busy ? 'busy' : 'idle',
    generation: proc?.generation ?? null,
    sandbox: proc?.sandboxState ?? null,
    startedAt: proc?.startedAt.toISOString() ?? null,
    cells: proc ? slot.cells : 0,
  };
  const reason = slot.dead ?? slot.reason;
  if (reason) status.reason = reason;
  const cause = slot.dead ? slot.deadCause : slot.cause;
  if (cause) status.cause = cause;
  return status;
}

/** Every language's slot of the session. Read-only: asking must not create slots (they would never be released). */
export function sessionStatus(table: SlotTable, sessionId: string): KernelStatus {
  const slots = table.get(sessionId);
  return { sessionId, slots: LANGUAGES.map((language) => slotStatus(slots?.get(language) ?? emptySlot(language))) };
}
