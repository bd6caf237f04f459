import type { AppNoticeCode, AppNoticeEvent } from '../../../src-preload/contract';
import { placeholdersOf, type Params } from '../i18n/language';
import type { MessageKey } from '../i18n/messages';

type T = (key: MessageKey, params?: Params) => string;

/** The codes this window has sentences for (a code added to the contract must be added here). */
const KNOWN: Record<AppNoticeCode, true> = {
  package_open_failed: true,
  report_open_failed: true,
};

/**
 * A notice from main (`app.notice`) in the window's language: the sentence of its code
 * (`appNotice.<code>`) filled from its params. Main's English message stands in for a code
 * this window does not know (a newer main), for none, and for a sentence whose params did
 * not all come (a half-filled sentence would show `{file}`). Pure.
 */
export function noticeText(t: T, notice: Pick<AppNoticeEvent, 'message'> & { code?: string; params?: Record<string, string> }): string {
  const code = notice.code;
  if (!code || !Object.prototype.hasOwnProperty.call(KNOWN, code)) return notice.message;
  const key = `appNotice.${code as AppNoticeCode}` as const;
  const params = notice.params ?? {};
  if (!placeholdersOf(t(key)).every((name) => Object.prototype.hasOwnProperty.call(params, name))) return notice.message;
  return t(key, params);
}
