import type {
  KernelDeath,
  KernelExitCause,
  KernelLanguage,
  KernelSandboxGap,
  KernelSlotStatus,
  KernelTimeLimit,
} from '../../../../src-preload/contract';
import type { Params } from '../../i18n/language';
import type { MessageKey } from '../../i18n/messages';

/**
 * What main says of a kernel (how it ended, why a slot is stopped, why it runs unsandboxed,
 * a cell's time limit), in the window's language when main named the case; otherwise main's
 * own English words (results recorded before the case was named). Pure.
 */
type T = (key: MessageKey, params?: Params) => string;

const generationOf = (id: string) => id.slice(0, 8);

/** A limit as "90 s" or "30 min". */
function limitText(t: T, ms: number): string {
  return ms < 120_000 ? t('kernel.duration.seconds', { n: Math.round(ms / 1000) }) : t('kernel.duration.minutes', { n: Math.round(ms / 60_000) });
}

/** How a kernel's process ended, as a verb phrase ("was killed by SIGKILL"). */
export function exitCauseText(t: T, cause: KernelExitCause): string {
  switch (cause.kind) {
    case 'signal':
      return t('kernel.exit.signal', { signal: cause.signal });
    case 'exit':
      return t('kernel.exit.code', { code: cause.code === null ? '?' : cause.code });
    case 'spawn_failed':
      return t('kernel.exit.spawnFailed', { file: cause.file, message: cause.message });
    case 'interrupt_unheeded':
      return t('kernel.exit.interruptUnheeded', { seconds: Math.max(1, Math.round(cause.graceMs / 1000)) });
    case 'out_of_memory':
      return t('kernel.exit.outOfMemory', { limit: cause.limitMiB });
    case 'frame_too_large':
      return t('kernel.exit.frameTooLarge', { limit: cause.limitMiB });
  }
}

/** A cell's kernel death: the headline and what was lost. */
export function deathText(t: T, died: KernelDeath, language: KernelLanguage, generation: string | undefined): { headline: string; lost: string } {
  if (!died.cause) return { headline: died.reason, lost: died.lost };
  const name = t(`kernel.language.${language}`);
  return {
    headline: t('cell.died.headline', { language: name, how: exitCauseText(t, died.cause) }),
    lost: t('cell.died.lost', { generation: generation ? generationOf(generation) : '?' }),
  };
}

/** Why a slot has no running generation or is stopped; null when there is nothing to say. */
export function slotReasonText(t: T, slot: KernelSlotStatus): string | null {
  const cause = slot.cause;
  if (!cause) return slot.reason ?? null;
  switch (cause.kind) {
    case 'ended':
      return t('kernel.cause.ended', { generation: generationOf(cause.generation), how: exitCauseText(t, cause.exit) });
    case 'idle_shutdown':
      return t('kernel.cause.idleShutdown', { duration: limitText(t, cause.idleSeconds * 1000) });
    case 'restarted':
      return t('kernel.cause.restarted', { generation: generationOf(cause.generation) });
    case 'crash_loop':
      return t('kernel.cause.crashLoop', { failures: cause.failures, error: cause.lastError });
    case 'session_closed':
      return t('kernel.cause.sessionClosed');
  }
}

/** Why kernels run without their sandbox here. */
export function sandboxGapText(t: T, gap: { reason?: string; gap?: KernelSandboxGap; detail?: string }): string {
  if (!gap.gap) return gap.reason ?? '';
  return t(`kernel.sandboxGap.${gap.gap}`, { detail: gap.detail ?? '' });
}

/** A cell stopped by its wall-clock limit: the limit, and how to give the next one more. */
export function timeLimitText(t: T, limit: KernelTimeLimit): string {
  return t('cell.timeLimitHit', { limit: limitText(t, limit.limitMs) });
}
