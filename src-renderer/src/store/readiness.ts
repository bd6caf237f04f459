import type { ProviderStatus, ProvidersView } from '../../../src-preload/contract';

/**
 * Which provider a message goes to, and whether it can: pure, over the providers view
 * (`provider.list`). Sending to a provider that is not ready opens the setup instead of
 * starting a run that can only fail.
 */

/** The provider a message would use: the composer's pick, else the default (Settings, OPENAI4S_PROVIDER, ark). */
export function targetProvider(view: ProvidersView | null, chosen: string | null | undefined): ProviderStatus | null {
  if (!view) return null;
  const id = chosen ?? view.defaultProvider;
  return view.providers.find((p) => p.id === id) ?? view.providers.find((p) => p.isDefault) ?? null;
}

export function readyProviders(view: ProvidersView | null): ProviderStatus[] {
  return view?.providers.filter((p) => p.readiness.state === 'ready') ?? [];
}

/** True once the view is known and no provider is ready: the welcome screen offers the setup. */
export function noneReady(view: ProvidersView | null): boolean {
  return view !== null && readyProviders(view).length === 0;
}

/**
 * The provider to set up before this message can be sent, or null when it can go (ready,
 * or readiness not known yet: then the run itself reports what is missing).
 */
export function setupNeededFor(view: ProvidersView | null, chosen: string | null | undefined): string | null {
  const target = targetProvider(view, chosen);
  if (!target || target.readiness.state === 'ready') return null;
  return target.id;
}

/** The provider the setup form opens on: the one asked for, else the default if not ready, else Ark (listed first). */
export function setupStartProvider(view: ProvidersView | null, asked: string | null | undefined): string {
  if (asked && view?.providers.some((p) => p.id === asked)) return asked;
  const def = targetProvider(view, null);
  if (def && def.readiness.state !== 'ready') return def.id;
  return view?.providers[0]?.id ?? 'ark';
}
