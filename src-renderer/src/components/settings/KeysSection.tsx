import type { ProviderReport } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { KeyRow } from './KeyRow';
import { SERVICE_KEY_ROWS, ServiceKeyRow } from './ServiceKeyRow';
import { Section } from './Section';

/** Provider keys: one row per provider the doctor report knows. */
export function KeysSection({ providers }: { providers: readonly ProviderReport[] }) {
  const t = useT();
  const view = useAppStore((s) => s.settings.data);
  return (
    <Section
      title={t('settings.keys.title')}
      note={
        view?.keyStorage.available ? t('settings.keys.note') : (view?.keyStorage.reason ?? undefined)
      }
      testId="settings-keys"
    >
      <div className="table-wrap" tabIndex={0}>
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
            {SERVICE_KEY_ROWS.map((s) => (
              <ServiceKeyRow key={s.id} service={s} stored={view?.keys.find((k) => k.providerId === s.id)} canStore={view?.keyStorage.available ?? false} />
            ))}
          </tbody>
        </table>
      </div>
    </Section>
  );
}
