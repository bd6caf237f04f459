import { useState } from 'react';
import type { StoredKeyInfo } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';

/**
 * Keys of services that are not model providers, stored like provider keys (the same
 * routes, under the service id; the core's list is src-main/core/settings/serviceKeys.ts).
 */
export const SERVICE_KEY_ROWS = [{ id: 'bohrium', label: 'Bohrium Science Navigator', envVar: 'OPENAI4S_BOHRIUM_ACCESS_KEY' }] as const;

/** One service's key: stored or not, and a write-only field (a stored key is shown only as a hint). */
export function ServiceKeyRow({ service, stored, canStore }: { service: (typeof SERVICE_KEY_ROWS)[number]; stored: StoredKeyInfo | undefined; canStore: boolean }) {
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
    <tr data-testid={`key-row-${service.id}`}>
      <td>
        <span className="provider-name">{service.label}</span>
      </td>
      <td>
        <span className={`pill pill-${stored ? 'ok' : 'neutral'}`}>{stored ? t('system.providers.keySource.settings') : t('system.providers.keySource.none')}</span>{' '}
        <span className="muted small">{t('settings.keys.serviceEnv', { variable: service.envVar })}</span>
      </td>
      <td className="mono" data-testid={`key-hint-${service.id}`}>
        {stored ? stored.hint : '—'}
      </td>
      <td>
        <form
          className="key-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (key.trim()) void run(() => setKey(service.id, key));
          }}
        >
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            disabled={!canStore || busy}
            placeholder={stored ? t('settings.keys.replace') : t('settings.keys.enter')}
            aria-label={t('settings.keys.inputLabel', { provider: service.label })}
            onChange={(e) => setKeyText(e.target.value)}
          />
          <button type="submit" className="btn" disabled={!canStore || busy || !key.trim()}>
            {t('settings.save')}
          </button>
          {stored ? (
            <button type="button" className="btn" disabled={busy} onClick={() => void run(() => clearKey(service.id))}>
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
