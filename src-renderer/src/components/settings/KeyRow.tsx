import { useState } from 'react';
import type { ProviderReport, StoredKeyInfo } from '../../../../src-preload/contract';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';

/** One provider's key: its status and a write-only field (a stored key is shown only as a hint). */
export function KeyRow({
  provider,
  stored,
  canStore,
}: {
  provider: ProviderReport;
  stored: StoredKeyInfo | undefined;
  canStore: boolean;
}) {
  const t = useT();
  const setKey = useAppStore((s) => s.setProviderKey);
  const clearKey = useAppStore((s) => s.clearProviderKey);
  const [key, setKeyText] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<string | null>) => {
    setBusy(true);
    const failed = await action();
    setBusy(false);
    setError(failed);
    if (!failed) setKeyText('');
  };
  return (
    <tr data-testid={`key-row-${provider.id}`}>
      <td>
        <span className="provider-name">{provider.label}</span>
        {provider.isDefault ? (
          <span className="pill pill-neutral"> {t('system.providers.default')}</span>
        ) : null}
      </td>
      <td>
        <span className={`pill pill-${provider.configured ? 'ok' : 'neutral'}`}>
          {provider.configured
            ? t('system.providers.configured')
            : t('system.providers.notConfigured')}
        </span>{' '}
        <span className="muted small">
          {t(`system.providers.keySource.${provider.keySource}` as MessageKey)}
        </span>
      </td>
      <td className="mono" data-testid={`key-hint-${provider.id}`}>
        {stored ? stored.hint : '—'}
      </td>
      <td>
        <form
          className="key-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (key.trim()) void run(() => setKey(provider.id, key));
          }}
        >
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            disabled={!canStore || busy}
            placeholder={stored ? t('settings.keys.replace') : t('settings.keys.enter')}
            aria-label={t('settings.keys.inputLabel', { provider: provider.label })}
            onChange={(e) => setKeyText(e.target.value)}
          />
          <button type="submit" className="btn" disabled={!canStore || busy || !key.trim()}>
            {t('settings.save')}
          </button>
          {stored ? (
            <button
              type="button"
              className="btn"
              disabled={busy}
              onClick={() => void run(() => clearKey(provider.id))}
            >
              {t('settings.keys.remove')}
            </button>
          ) : null}
        </form>
        {error ? (
          <p className="error-text small" role="alert">
            {error}
          </p>
        ) : null}
      </td>
    </tr>
  );
}
