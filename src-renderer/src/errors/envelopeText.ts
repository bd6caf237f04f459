import type { ErrorBody, ErrorReason } from '../../../src-preload/contract';
import type { Params } from '../i18n/language';
import type { MessageKey } from '../i18n/messages';

type T = (key: MessageKey, params?: Params) => string;

/**
 * An IPC error (`{ok: false, error}`) in the window's language. Main's message names the
 * specifics (which session, which field, which file), so for most cases the window heads
 * it with the case (`envelope.<reason>`: in English the message alone, in Chinese the case
 * then the message); a case whose message adds nothing (the app is closing, the run is
 * still going) is said whole. A reason this window does not know, or none (an older main,
 * an error the renderer made), shows the message. Pure.
 */

/** Cases said whole: main's message says nothing more than the sentence. */
const WHOLE: ReadonlySet<ErrorReason> = new Set(['shutting_down', 'run_not_finished']);

const HEADED: Record<Exclude<ErrorReason, 'shutting_down' | 'run_not_finished'>, true> = {
  invalid_request: true,
  unknown_route: true,
  forbidden_sender: true,
  internal: true,
  invalid_input: true,
  not_found: true,
  conflict: true,
  refused: true,
  unavailable: true,
  not_configured: true,
};

export function envelopeErrorText(t: T, error: Pick<ErrorBody, 'message' | 'reason'> | null | undefined): string {
  if (!error) return '';
  const reason = error.reason;
  if (!reason) return error.message;
  if (WHOLE.has(reason)) return t(`envelope.${reason}`);
  if (Object.prototype.hasOwnProperty.call(HEADED, reason)) return t(`envelope.${reason}`, { message: error.message });
  return error.message;
}
