import type { ProviderReport } from '../../../src-preload/contract';
import { useT } from '../i18n/useT';
import { Pill } from './ui';

/** Every provider the app knows, configured or not. The report never contains a key. */
export function ProvidersTable({ providers }: { providers: ProviderReport[] }) {
  const t = useT();
  return (
    <section className="card card-wide" data-testid="card-providers">
      <header className="card-head">
        <h2>{t('system.providers.title')}</h2>
      </header>
      <p className="muted note">{t('system.providers.note')}</p>
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
            {providers.map((p) => (
              <tr key={p.id} data-testid={`provider-${p.id}`}>
                <td>
                  <div className="provider-name">
                    {p.label}
                    {p.isDefault ? (
                      <Pill tone="neutral" testId="provider-default">
                        {t('system.providers.default')}
                      </Pill>
                    ) : null}
                  </div>
                  <div className="mono sub">{p.id}</div>
                </td>
                <td>
                  <Pill tone={p.configured ? 'ok' : 'warn'}>
                    {t(
                      p.configured
                        ? 'system.providers.configured'
                        : 'system.providers.notConfigured',
                    )}
                  </Pill>
                </td>
                <td>
                  {t(`system.providers.keySource.${p.keySource}`)}
                  {p.keyVariable ? <div className="mono sub">{p.keyVariable}</div> : null}
                </td>
                <td className="mono">{p.model}</td>
                <td className="mono url">{p.baseUrl}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
