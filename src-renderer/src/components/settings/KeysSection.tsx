import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { keyStorageReason } from '../setup/keyStorageReason';
import { KeyRow } from './KeyRow';
import { SERVICE_KEY_ROWS, ServiceKeyRow } from './ServiceKeyRow';
import { Section } from './Section';
import type { ProviderStatus } from '../../../../src-preload/contract';

const NONE: readonly ProviderStatus[] = [];

/** Providers: each one's key, readiness, base URL and model, and its setup; then the service keys. */
export function KeysSection() {
  const t = useT();
  const view = useAppStore((s) => s.settings.data);
  const providers = useAppStore((s) => s.providers.data?.providers ?? NONE);
  return (
    <Section
      title={t('settings.keys.title')}
      note={
        view?.keyStorage.available ? t('settings.keys.note') : view ? t('setup.noStorage', { reason: keyStorageReason(view.keyStorage, t) ?? '' }) : undefined
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
