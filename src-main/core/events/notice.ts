import { appNoticeSchema, type AppNoticeInput } from '../../../src-preload/contract/notices';
import type { EventBus } from './bus';

/**
 * Sends the window a notice (`app.notice`) once it fits the contract: a known code, a
 * message, params by name. The window does not parse events, so a malformed notice is
 * stopped here, said on stderr, and answered false (the caller's own failure still stands).
 */
export function publishNotice(events: EventBus, notice: AppNoticeInput): boolean {
  const parsed = appNoticeSchema.safeParse(notice);
  if (!parsed.success) {
    console.error(`[notice] not sent, it does not fit the contract: ${parsed.error.issues.map((i) => `${i.path.join('.') || 'notice'}: ${i.message}`).join('; ')}`);
    return false;
  }
  events.emit('app.notice', parsed.data);
  return true;
}
