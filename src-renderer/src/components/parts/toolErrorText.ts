import type { ToolErrorCode } from '../../../../src-preload/contract';
import type { Params } from '../../i18n/language';
import type { MessageKey } from '../../i18n/messages';

type T = (key: MessageKey, params?: Params) => string;

/** Every case the window can say; a code outside it (a newer main's) is not guessed at. */
const SAID: Record<ToolErrorCode, true> = {
  unknown_tool: true,
  invalid_arguments: true,
  arguments_too_large: true,
  denied: true,
  not_allowed: true,
  screening_refused: true,
  network_refused: true,
  outside_workspace: true,
  protected_path: true,
  not_found: true,
  timed_out: true,
  cancelled: true,
  interrupted: true,
  answer_not_accepted: true,
  failed: true,
};

function isSaid(code: string): code is ToolErrorCode {
  return Object.prototype.hasOwnProperty.call(SAID, code);
}

/**
 * A failed tool call's case in the window's language, as the heading of main's own words
 * (which stay below it: they name the path, the address, the schema problem). Null when
 * main named no case (a recorded session) or one this window does not know: then main's
 * words alone are shown. Pure.
 */
export function toolErrorHeadline(t: T, code: string | undefined, tool: string): string | null {
  if (!code || !isSaid(code)) return null;
  return t(`toolError.${code}`, { tool });
}
