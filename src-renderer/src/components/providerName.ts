import type { Params } from '../i18n/language';
import type { MessageKey } from '../i18n/messages';

/**
 * Providers whose names are words rather than brands: main's catalogue gives them in
 * English ("Ollama (local)"), the window says them in its language. The rest are brands,
 * said as main gives them.
 */
const TRANSLATED: Partial<Record<string, MessageKey>> = {
  ark: 'provider.name.ark',
  ollama: 'provider.name.ollama',
};

/** A provider's name in the window's language. */
export function providerName(p: { id: string; label: string }, t: (key: MessageKey, params?: Params) => string): string {
  const key = TRANSLATED[p.id];
  return key ? t(key) : p.label;
}
