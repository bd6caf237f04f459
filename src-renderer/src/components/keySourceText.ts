import type { ProviderStatus } from '../../../src-preload/contract';
import type { Params } from '../i18n/language';
import type { MessageKey } from '../i18n/messages';

/**
 * Where a provider's key came from, in the window's language; "not needed" for a provider
 * that needs none and has none (a local Ollama), rather than "no key". The System page and
 * Settings both say it.
 */
export function keySourceText(
  keySource: ProviderStatus['keySource'],
  requiresKey: boolean | undefined,
  t: (key: MessageKey, params?: Params) => string,
): string {
  return keySource === 'none' && requiresKey === false
    ? t('system.providers.keyNotNeeded')
    : t(`system.providers.keySource.${keySource}`);
}
