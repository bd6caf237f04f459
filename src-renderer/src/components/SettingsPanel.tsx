import { useEffect, useState } from 'react';
import type { ProviderReport, StoredKeyInfo } from '../../../src-preload/contract';
import type { MessageKey } from '../i18n/messages';
import { useT } from '../i18n/useT';
import { CellLimitSetting } from './CellLimitSetting';
import { LanguageSwitch } from './LanguageSwitch';
import { useAppStore } from '../store/context';
import type { ThemeChoice } from '../store/settingsSlice';

/** One provider's key: its status and a write-only field (a stored key is shown only as a hint). */
function KeyRow({
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

function Section({
  title,
  note,
  children,
  testId,
}: {
  title: string;
  note?: string;
  children: React.ReactNode;
  testId?: string;
}) {
  return (
    <section className="card settings-section" data-testid={testId}>
      <header className="card-head">
        <h2>{title}</h2>
      </header>
      {note ? <p className="muted small settings-note">{note}</p> : null}
      {children}
    </section>
  );
}

/** Providers and keys, defaults, sandbox, approval rules, language, theme, data directory. */
export function SettingsPanel() {
  const t = useT();
  const s = useAppStore((x) => x.settings);
  const rules = useAppStore((x) => x.rules);
  const doctor = useAppStore((x) => x.doctor);
  const load = useAppStore((x) => x.loadSettings);
  const loadRules = useAppStore((x) => x.loadRules);
  const loadDoctor = useAppStore((x) => x.loadDoctor);
  const update = useAppStore((x) => x.updateSettings);
  const revoke = useAppStore((x) => x.revokeRule);
  const theme = useAppStore((x) => x.theme);
  const setTheme = useAppStore((x) => x.setTheme);
  const [modelDraft, setModelDraft] = useState<string | null>(null);
  const [saveError, setSaveError] = useState<string | null>(null);

  useEffect(() => {
    void load();
    void loadRules();
    if (doctor.status === 'idle') void loadDoctor();
    // Settings are read fresh each time the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const view = s.view;
  const providers = doctor.report?.providers ?? [];
  const save = async (patch: Parameters<typeof update>[0]) => setSaveError(await update(patch));

  return (
    <section className="system settings" aria-labelledby="settings-title">
      <header className="page-head">
        <div>
          <h1 id="settings-title">{t('settings.title')}</h1>
          <p className="muted">{t('settings.subtitle')}</p>
        </div>
      </header>
      {s.error ? (
        <div className="alert" role="alert">
          {s.error.message}
        </div>
      ) : null}
      {saveError ? (
        <div className="alert" role="alert">
          {saveError}
        </div>
      ) : null}
      <div className="settings-grid">
        <Section
          title={t('settings.keys.title')}
          note={
            view?.keyStorage.available
              ? t('settings.keys.note')
              : (view?.keyStorage.reason ?? undefined)
          }
          testId="settings-keys"
        >
          <div className="table-wrap">
            <table className="providers">
              <thead>
                <tr>
                  <th>{t('system.providers.provider')}</th>
                  <th>{t('system.providers.status')}</th>
                  <th>{t('settings.keys.stored')}</th>
                  <th>{t('settings.keys.key')}</th>
                </tr>
              </thead>
              <tbody>
                {providers.map((p) => (
                  <KeyRow
                    key={p.id}
                    provider={p}
                    stored={view?.keys.find((k) => k.providerId === p.id)}
                    canStore={view?.keyStorage.available ?? false}
                  />
                ))}
              </tbody>
            </table>
          </div>
        </Section>

        <Section title={t('settings.defaults.title')} note={t('settings.defaults.note')}>
          <div className="settings-row">
            <label>
              <span>{t('composer.provider')}</span>
              <select
                value={view?.settings.defaultProvider ?? ''}
                onChange={(e) => void save({ defaultProvider: e.target.value || null })}
                data-testid="default-provider"
              >
                <option value="">{t('settings.defaults.fromEnv')}</option>
                {providers.map((p) => (
                  <option key={p.id} value={p.id}>
                    {p.label}
                  </option>
                ))}
              </select>
            </label>
            <label>
              <span>{t('composer.model')}</span>
              <input
                className="mono"
                value={modelDraft ?? view?.settings.defaultModel ?? ''}
                placeholder={t('composer.defaultModel')}
                onChange={(e) => setModelDraft(e.target.value)}
                onBlur={() => {
                  if (modelDraft === null) return;
                  void save({ defaultModel: modelDraft.trim() || null });
                  setModelDraft(null);
                }}
                data-testid="default-model"
              />
            </label>
          </div>
        </Section>

        <Section
          title={t('system.sandbox.title')}
          note={t('settings.sandbox.note', { mode: view?.activeSandboxMode ?? '…' })}
        >
          <div className="radio-list" role="radiogroup" aria-label={t('system.sandbox.mode')}>
            {(['auto', 'enforce', 'off'] as const).map((mode) => (
              <label key={mode} className="radio">
                <input
                  type="radio"
                  name="sandbox"
                  checked={(view?.settings.sandboxMode ?? view?.activeSandboxMode) === mode}
                  onChange={() => void save({ sandboxMode: mode })}
                />
                <span>{t(`system.sandbox.mode.${mode}` as MessageKey)}</span>
              </label>
            ))}
          </div>
        </Section>

        <Section title={t('settings.cellLimit.title')} note={t('settings.cellLimit.note')}>
          <CellLimitSetting
            seconds={view?.settings.cellTimeoutS ?? null}
            onSave={(cellTimeoutS) => void save({ cellTimeoutS })}
          />
        </Section>

        <Section
          title={t('settings.rules.title')}
          note={t('settings.rules.note')}
          testId="settings-rules"
        >
          {rules.status === 'error' ? (
            <p className="error-text small">{rules.error?.message}</p>
          ) : null}
          {rules.items.length === 0 && rules.status === 'ready' ? (
            <p className="muted small">{t('settings.rules.empty')}</p>
          ) : null}
          <ul className="rule-list">
            {rules.items.map((r) => (
              <li key={r.id}>
                <span
                  className={`pill pill-${r.action === 'allow' ? 'ok' : r.action === 'deny' ? 'bad' : 'warn'}`}
                >
                  {r.action}
                </span>
                <span className="mono">{r.tool}</span>
                <span className="muted mono small">{r.target}</span>
                <span className="grow" />
                <button type="button" className="btn" onClick={() => void revoke(r.id)}>
                  {t('settings.rules.revoke')}
                </button>
              </li>
            ))}
          </ul>
        </Section>

        <Section title={t('settings.appearance.title')}>
          <div className="settings-row">
            <LanguageSwitch />
            <div className="segmented" role="group" aria-label={t('settings.theme')}>
              {(['system', 'light', 'dark'] as ThemeChoice[]).map((choice) => (
                <button
                  key={choice}
                  type="button"
                  className={choice === theme ? 'active' : undefined}
                  aria-pressed={choice === theme}
                  onClick={() => setTheme(choice)}
                >
                  {t(`settings.theme.${choice}` as MessageKey)}
                </button>
              ))}
            </div>
          </div>
        </Section>

        <Section title={t('system.dataDir')} note={t('settings.dataDir.note')}>
          <p className="mono" data-testid="settings-data-dir">
            {view?.dataDir}
          </p>
          <p className="muted small">
            {view
              ? t(view.dataDirSource === 'env' ? 'system.dataDir.env' : 'system.dataDir.default')
              : null}
          </p>
        </Section>
      </div>
    </section>
  );
}
