import type { KernelLanguage, KernelSlotCause } from '../../../src-preload/contract/kernel';
import { KERNEL_ENVS } from '../config/kernelEnvs';
import { exitText } from './exitInfo';

/** The fields of a slot (slots.ts) these write. */
interface SlotWords {
  language: KernelLanguage;
  dead: string | null;
  deadCause?: KernelSlotCause;
  reason?: string;
  cause?: KernelSlotCause;
}

/** A slot's cause in English words (the status's `reason`: the model, the CLI, logs). */
export function slotCauseText(language: KernelLanguage, cause: KernelSlotCause): string {
  switch (cause.kind) {
    case 'ended':
      return `generation ${cause.generation.slice(0, 8)} ${exitText(cause.exit)}; its variables are gone`;
    case 'idle_shutdown':
      return `shut down after ${cause.idleSeconds} s idle; its variables are gone`;
    case 'restarted':
      return `restarted; generation ${cause.generation.slice(0, 8)} and its variables are gone`;
    case 'crash_loop':
      return `The ${KERNEL_ENVS[language].label} kernel failed to start ${cause.failures} times in a row, so it is stopped (crash loop). Last error: ${cause.lastError}. Fix the cause, then restart the kernel.`;
    case 'session_closed':
      return 'The session was closed (deleted); its kernels were stopped.';
  }
}

/** Why the slot's last generation ended, in words and by case. */
export function noteSlotEnded(slot: SlotWords, cause: KernelSlotCause): void {
  slot.cause = cause;
  slot.reason = slotCauseText(slot.language, cause);
}

/** Stops the slot until it is restarted (crash loop, session closed); returns the words. */
export function markSlotDead(slot: SlotWords, cause: KernelSlotCause): string {
  slot.deadCause = cause;
  slot.dead = slotCauseText(slot.language, cause);
  return slot.dead;
}
