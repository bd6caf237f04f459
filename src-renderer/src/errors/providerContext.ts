import type { ProviderStatus, ProvidersView } from '../../../src-preload/contract';
import type { ProviderContext } from './explain';

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\]|::1|0\.0\.0\.0|.+\.localhost)$/i;

/** The URL names this machine (the same rule as the core's readiness check). */
export function isLoopbackUrl(url: string): boolean {
  try {
    return LOOPBACK.test(new URL(url).hostname);
  } catch {
    return false;
  }
}

/**
 * What an explanation needs of a provider: its name (in the window's language, through
 * `nameOf`) and where (and which model) the request went.
 */
export function providerContext(
  status: ProviderStatus | undefined | null,
  over: { baseUrl?: string | null; model?: string | null; id?: string | null } = {},
  nameOf: (p: { id: string; label: string }) => string = (p) => p.label,
): ProviderContext | null {
  if (!status && !over.id) return null;
  const baseUrl = over.baseUrl || status?.baseUrl || '';
  return {
    id: status?.id ?? over.id ?? '',
    label: status ? nameOf(status) : (over.id ?? ''),
    baseUrl,
    model: over.model || status?.model || '',
    local: isLoopbackUrl(baseUrl),
    defaultBaseUrl: status?.defaultBaseUrl ?? 'https://api.openai.com/v1',
  };
}

export function findProvider(view: ProvidersView | null, id: string | null | undefined): ProviderStatus | null {
  return (id && view?.providers.find((p) => p.id === id)) || null;
}
