import { useEffect } from 'react';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { targetProvider } from '../../store/readiness';
import { providerName } from '../providerName';

/**
 * The composer's provider choice, each provider with its readiness (ready, needs a key,
 * not running). When the chosen one is not ready, a button opens its setup right here.
 */
export function ProviderPicker() {
  const t = useT();
  const providers = useAppStore((s) => s.providers);
  const loadProviders = useAppStore((s) => s.loadProviders);
  const provider = useAppStore((s) => s.provider);
  const setModelChoice = useAppStore((s) => s.setModelChoice);
  const openSetup = useAppStore((s) => s.openSetup);
  const defaultProvider = useAppStore((s) => s.settings.data?.settings.defaultProvider ?? null);

  useEffect(() => {
    if (providers.status === 'idle') void loadProviders();
  }, [providers.status, loadProviders]);

  const view = providers.data;
  const chosen = targetProvider(view, provider ?? defaultProvider);
  const list = view?.providers ?? [];
  return (
    <>
      <label className="picker">
        <span className="sr-only">{t('composer.provider')}</span>
        <select
          value={chosen?.id ?? ''}
          onChange={(e) => setModelChoice(e.target.value || null, null)}
          aria-label={t('composer.provider')}
          data-testid="provider-picker"
          data-readiness={chosen?.readiness.state}
        >
          {list.length === 0 ? <option value="">{t('composer.provider')}</option> : null}
          {list.map((p) => (
            <option key={p.id} value={p.id}>
              {`${providerName(p, t)} · ${t(`readiness.${p.readiness.state}` as MessageKey)}`}
            </option>
          ))}
        </select>
      </label>
      {chosen && chosen.readiness.state !== 'ready' ? (
        <button type="button" className="link small" onClick={() => openSetup(chosen.id)} data-testid="composer-setup">
          {t('composer.setupProvider', { provider: providerName(chosen, t) })}
        </button>
      ) : null}
    </>
  );
}
