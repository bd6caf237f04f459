import type { ProviderReport } from '../../../src-preload/contract';
import type { MessageKey } from '../i18n/messages';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';
import { READINESS_TONE } from './setup/ProviderChoice';
import { Pill } from './ui';
import { keySourceText } from './keySourceText';
import { providerName } from './providerName';

/**
 * Every provider the app knows, with the readiness Settings and the composer show (a
 * local endpoint counts only when it answers). Where keys can be stored, the note points
 * to Settings; the variables are the alternative that wins. Never a key.
 */
export function ProvidersTable({ providers }: { providers: ProviderReport[] }) {
  const t = useT();
  const view = useAppStore((s) => s.providers.data);
  const canStore = useAppStore(
    (s) => s.settings.data?.keyStorage.available ?? view?.keyStorage.available ?? false,
  );
  const setView = useAppStore((s) => s.setView);
  return (
    <section className="card card-wide" data-testid="card-providers">
      <header className="card-head">
        <h2>{t('system.providers.title')}</h2>
        {canStore ? (
          <button
            type="button"
            className="btn"
            onClick={() => setView('settings')}
            data-testid="providers-open-settings"
          >
            {t('system.providers.openSettings')}
          </button>
        ) : null}
      </header>
      <p className="muted note" data-testid="providers-note">
        {canStore ? t('system.providers.noteSettings') : t('system.providers.note')}
      </p>
      <div className="table-wrap" tabIndex={0}>
        <table className="providers">
          <thead>
            <tr>
              <th scope="col">{t('system.providers.provider')}</th>
              <th scope="col">{t('system.providers.status')}</th>
              <th scope="col">{t('system.providers.key')}</th>
              <th scope="col">{t('system.providers.model')}</th>
              <th scope="col">{t('system.providers.baseUrl')}</th>
            </tr>
          </thead>
          <tbody>
            {providers.map((p) => {
              const status = view?.providers.find((x) => x.id === p.id);
              return (
                <tr key={p.id} data-testid={`provider-${p.id}`}>
                  <td>
                    <div className="provider-name">
                      {providerName(p, t)}
                      {p.isDefault ? (
                        <Pill tone="neutral" testId="provider-default">
                          {t('system.providers.default')}
                        </Pill>
                      ) : null}
                    </div>
                    <div className="mono sub">{p.id}</div>
                  </td>
                  <td>
                    <ProviderState report={p} readiness={status?.readiness.state ?? null} />
                  </td>
                  <td data-testid="key-source">
                    {keySourceText(p.keySource, status?.requiresKey, t)}
                    {p.keyVariable ? <div className="mono sub">{p.keyVariable}</div> : null}
                  </td>
                  <td className="mono">{p.model}</td>
                  <td className="mono url">{p.baseUrl}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </section>
  );
}

/** Readiness when known (the same words as Settings and the composer), else whether a key is configured. */
function ProviderState({
  report,
  readiness,
}: {
  report: ProviderReport;
  readiness: keyof typeof READINESS_TONE | null;
}) {
  const t = useT();
  if (readiness)
    return (
      <Pill tone={READINESS_TONE[readiness]} testId="readiness">
        {t(`readiness.${readiness}` as MessageKey)}
      </Pill>
    );
  return (
    <Pill tone={report.configured ? 'ok' : 'warn'}>
      {t(report.configured ? 'system.providers.configured' : 'system.providers.notConfigured')}
    </Pill>
  );
}
