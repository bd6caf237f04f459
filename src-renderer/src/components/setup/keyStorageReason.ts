import type { KeyStorageStatus } from '../../../../src-preload/contract';
import type { MessageKey } from '../../i18n/messages';
import type { Params } from '../../i18n/language';

/**
 * Why keys cannot be stored here, in the window's language when main named the case
 * (`code`); otherwise main's own words. Null when keys can be stored.
 */
export function keyStorageReason(status: KeyStorageStatus | undefined, t: (key: MessageKey, params?: Params) => string): string | null {
  if (!status || status.available) return null;
  if (status.code) return t(`setup.keyStorage.${status.code}`, { backend: status.backend ?? '' });
  return status.reason;
}
