import { useId, useState } from 'react';
import type { ConnectionTestResult, ErrorBody, ProvidersView, ProviderStatus } from '../../../../src-preload/contract';
import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { envelopeErrorText } from '../../errors/envelopeText';
import { useAppStore } from '../../store/context';
import { setupStartProvider } from '../../store/readiness';
import { ProviderChoice } from './ProviderChoice';
import { ProviderHelp } from './ProviderHelp';
import { keyStorageReason } from './keyStorageReason';
import { SetupField } from './SetupField';
import { TestOutcome } from './TestOutcome';
import { providerName } from '../providerName';

interface Draft {
  key: string;
  baseUrl: string;
  model: string;
}

/** A field starts with what Settings saved; one set by a variable shows that value (the variable wins). */
function draftOf(p: ProviderStatus | undefined): Draft {
  const own = (origin: string, value: string) => (origin === 'settings' || origin === 'env' || origin === 'dotenv' ? value : '');
  return { key: '', baseUrl: p ? own(p.baseUrlOrigin, p.baseUrl) : '', model: p ? own(p.modelOrigin, p.model) : '' };
}

/** Offered as the default when it is not one already and the current default cannot be used. */
function offerDefault(view: ProvidersView, p: ProviderStatus | undefined): boolean {
  const current = view.providers.find((x) => x.isDefault);
  return !!p && !p.isDefault && current?.readiness.state !== 'ready';
}

/**
 * The provider setup: choose a provider, paste its key, base URL and model, test the
 * connection (a tiny real request) and save. Used inline on the welcome screen and in
 * the setup dialog (from the composer, a suggested question, a failure or Settings).
 */
export function ProviderSetupForm({ view, initialProviderId, sendsPending }: { view: ProvidersView; initialProviderId: string | null; sendsPending: boolean }) {
  const t = useT();
  const configure = useAppStore((s) => s.configureProvider);
  const test = useAppStore((s) => s.testProvider);
  const loadProviders = useAppStore((s) => s.loadProviders);
  const groupName = useId();
  const [selected, setSelected] = useState(() => setupStartProvider(view, initialProviderId));
  const provider = view.providers.find((p) => p.id === selected);
  const [draft, setDraft] = useState<Draft>(() => draftOf(provider));
  const [makeDefault, setMakeDefault] = useState(() => offerDefault(view, provider));
  const [busy, setBusy] = useState<'test' | 'save' | 'check' | null>(null);
  const [tested, setTested] = useState<ConnectionTestResult | { error: ErrorBody } | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const [error, setError] = useState<ErrorBody | null>(null);

  if (!provider) return null;

  const choose = (id: string) => {
    const next = view.providers.find((p) => p.id === id);
    setSelected(id);
    setDraft(draftOf(next));
    setMakeDefault(offerDefault(view, next));
    setTested(null);
    setSaved(null);
    setError(null);
  };
  const edit = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setTested(null);
    setSaved(null);
  };
  const form = {
    providerId: provider.id,
    ...(draft.key.trim() ? { key: draft.key.trim() } : {}),
    ...(draft.baseUrl.trim() && provider.baseUrlOrigin !== 'env' && provider.baseUrlOrigin !== 'dotenv' ? { baseUrl: draft.baseUrl.trim() } : {}),
    ...(draft.model.trim() && provider.modelOrigin !== 'env' && provider.modelOrigin !== 'dotenv' ? { model: draft.model.trim() } : {}),
  };
  const runTest = async () => {
    setBusy('test');
    setTested(await test(form));
    setBusy(null);
  };
  const save = async () => {
    setBusy('save');
    setError(null);
    const outcome = await configure({
      ...form,
      // An emptied field puts the catalogue's value back.
      ...(provider.baseUrlOrigin === 'settings' && !draft.baseUrl.trim() ? { baseUrl: null } : {}),
      ...(provider.modelOrigin === 'settings' && !draft.model.trim() ? { model: null } : {}),
      ...(makeDefault ? { makeDefault: true } : {}),
    });
    setBusy(null);
    if ('error' in outcome) return setError(outcome.error);
    setDraft((d) => ({ ...d, key: '' }));
    const now = outcome.view.providers.find((p) => p.id === provider.id);
    setSaved(
      now && now.readiness.state !== 'ready'
        ? t('setup.savedNotReady', { provider: providerName(provider, t), state: t(`readiness.${now.readiness.state}` as MessageKey) })
        : t('setup.saved', { provider: providerName(provider, t) }),
    );
  };
  const fromVariable = (origin: string, variable: string) =>
    origin === 'env' || origin === 'dotenv' ? t('setup.fromVariable', { variable }) : null;
  const keyHint = provider.keySource === 'env' || provider.keySource === 'dotenv'
    ? t('setup.keyFromEnv', { variable: provider.keyVariable ?? '' })
    : provider.storedKeyHint
      ? t('setup.keyStored', { hint: provider.storedKeyHint })
      : null;

  return (
    <form
      className="setup-form"
      data-testid="provider-setup"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      <ProviderChoice providers={view.providers} selected={provider.id} onSelect={choose} name={groupName} />
      <div className="setup-fields">
        <ProviderHelp provider={provider} />
        {!view.keyStorage.available && provider.requiresKey ? (
          <p className="tone-warn small" data-testid="no-key-storage">{t('setup.noStorage', { reason: keyStorageReason(view.keyStorage, t) ?? '' })}</p>
        ) : null}
        {provider.requiresKey ? (
          <SetupField label={t('setup.key')} hint={keyHint} testId="setup-key">
            <input type="password" autoComplete="off" spellCheck={false} value={draft.key} placeholder={t('setup.keyPlaceholder')} onChange={(e) => edit({ key: e.target.value })} disabled={!view.keyStorage.available} />
          </SetupField>
        ) : (
          <p className="muted small">{t('setup.noKeyNeeded', { provider: providerName(provider, t) })}</p>
        )}
        <SetupField label={t('setup.baseUrl')} hint={fromVariable(provider.baseUrlOrigin, provider.baseUrlVariable) ?? t('setup.emptyMeans', { value: provider.defaultBaseUrl })} testId="setup-base-url">
          <input className="mono" type="url" spellCheck={false} value={draft.baseUrl} placeholder={provider.defaultBaseUrl} onChange={(e) => edit({ baseUrl: e.target.value })} disabled={!!fromVariable(provider.baseUrlOrigin, '')} />
        </SetupField>
        <SetupField label={t('setup.model')} hint={fromVariable(provider.modelOrigin, provider.modelVariable) ?? t('setup.emptyMeans', { value: provider.defaultModel })} testId="setup-model">
          <input className="mono" spellCheck={false} value={draft.model} placeholder={provider.defaultModel} onChange={(e) => edit({ model: e.target.value })} disabled={!!fromVariable(provider.modelOrigin, '')} />
        </SetupField>
        {!provider.isDefault ? (
          <label className="setup-check">
            <input type="checkbox" checked={makeDefault} onChange={(e) => setMakeDefault(e.target.checked)} /> {t('setup.makeDefault')}
          </label>
        ) : null}
        <div className="setup-actions">
          <button type="button" className="btn" onClick={() => void runTest()} disabled={busy !== null} data-testid="setup-test">
            {busy === 'test' ? <span className="spinner spinner-sm" aria-hidden="true" /> : null}
            {busy === 'test' ? t('setup.testing') : t('setup.test')}
          </button>
          <button type="submit" className="btn btn-primary" disabled={busy !== null} data-testid="setup-save">
            {busy === 'save' ? t('setup.saving') : sendsPending ? t('setup.saveAndSend') : t('setup.save')}
          </button>
          {provider.local ? (
            <button type="button" className="btn btn-ghost" disabled={busy !== null} onClick={() => { setBusy('check'); void loadProviders(true).finally(() => setBusy(null)); }} data-testid="setup-check-again">
              {t('setup.checkAgain')}
            </button>
          ) : null}
        </div>
        <div aria-live="polite">
          {tested ? <TestOutcome result={tested} provider={provider} /> : null}
          {saved ? <p className="setup-outcome tone-ok" role="status" data-testid="setup-saved">{saved}</p> : null}
          {error ? <p className="error-text" role="alert" data-testid="setup-error">{envelopeErrorText(t, error)}</p> : null}
        </div>
      </div>
    </form>
  );
}
