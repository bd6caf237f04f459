import { useState, type ReactNode } from 'react';
import type { ErrorBody, ProviderStatus, StoredKeyInfo } from '../../../../src-preload/contract';
import { READINESS_TONE } from '../setup/ProviderChoice';
import { keySourceText } from '../keySourceText';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { envelopeErrorText } from '../../errors/envelopeText';
import { useAppStore } from '../../store/context';
import { providerName } from '../providerName';

/**
 * One stored key (a model provider's or a service's, the same routes under its id): its
 * name, its status, and a write-only field (a stored key is shown only as a hint).
 */
export function KeyEditorRow({
  id,
  label,
  badge,
  status,
  stored,
  canStore,
}: {
  id: string;
  label: string;
  badge?: ReactNode;
  status: ReactNode;
  stored: StoredKeyInfo | undefined;
  canStore: boolean;
}) {
  const t = useT();
  const setKey = useAppStore((s) => s.setProviderKey);
  const clearKey = useAppStore((s) => s.clearProviderKey);
  const [key, setKeyText] = useState('');
  const [error, setError] = useState<ErrorBody | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async (action: () => Promise<ErrorBody | null>) => {
    setBusy(true);
    const failed = await action();
    setBusy(false);
    setError(failed);
    if (!failed) setKeyText('');
  };
  return (
    <tr data-testid={`key-row-${id}`}>
      <td>
        <span className="provider-name">{label}</span>
        {badge}
      </td>
      <td>{status}</td>
      <td className="mono" data-testid={`key-hint-${id}`}>
        {stored ? stored.hint : '—'}
      </td>
      <td>
        <form
          className="key-form"
          onSubmit={(e) => {
            e.preventDefault();
            if (key.trim()) void run(() => setKey(id, key));
          }}
        >
          <input
            type="password"
            autoComplete="off"
            spellCheck={false}
            value={key}
            disabled={!canStore || busy}
            placeholder={stored ? t('settings.keys.replace') : t('settings.keys.enter')}
            aria-label={t('settings.keys.inputLabel', { provider: label })}
            onChange={(e) => setKeyText(e.target.value)}
          />
          <button type="submit" className="btn" disabled={!canStore || busy || !key.trim()}>
            {t('settings.save')}
          </button>
          {stored ? (
            <button type="button" className="btn" disabled={busy} onClick={() => void run(() => clearKey(id))}>
              {t('settings.keys.remove')}
            </button>
          ) : null}
        </form>
        {error ? (
          <p className="error-text small" role="alert">
            {envelopeErrorText(t, error)}
          </p>
        ) : null}
      </td>
    </tr>
  );
}

/** One provider's key, readiness, base URL and model (each with where it comes from), and its setup. */
export function KeyRow({
  provider,
  stored,
  canStore,
}: {
  provider: ProviderStatus;
  stored: StoredKeyInfo | undefined;
  canStore: boolean;
}) {
  const t = useT();
  const openSetup = useAppStore((s) => s.openSetup);
  const origin = (o: ProviderStatus['baseUrlOrigin'], variable: string) => t(`origin.${o}` as MessageKey, { variable });
  return (
    <KeyEditorRow
      id={provider.id}
      label={providerName(provider, t)}
      badge={
        <>
          {provider.isDefault ? <span className="pill pill-neutral"> {t('system.providers.default')}</span> : null}
          <div className="mono sub" data-testid={`provider-model-${provider.id}`}>
            {t('setup.model')}: {provider.model} <span className="muted">({origin(provider.modelOrigin, provider.modelVariable)})</span>
          </div>
          <div className="mono sub url" data-testid={`provider-base-url-${provider.id}`}>
            {t('setup.baseUrl')}: {provider.baseUrl} <span className="muted">({origin(provider.baseUrlOrigin, provider.baseUrlVariable)})</span>
          </div>
          <button type="button" className="link small" onClick={() => openSetup(provider.id)} aria-label={t('settings.providers.editLabel', { provider: provider.label })} data-testid={`provider-setup-${provider.id}`}>
            {t('settings.providers.edit')}
          </button>
        </>
      }
      status={
        <>
          <span className={`pill pill-${READINESS_TONE[provider.readiness.state]}`} data-testid="readiness">
            {t(`readiness.${provider.readiness.state}` as MessageKey)}
          </span>{' '}
          <span className="muted small" data-testid="key-source">
            {keySourceText(provider.keySource, provider.requiresKey, t)}
          </span>
        </>
      }
      stored={stored}
      canStore={canStore}
    />
  );
}
