import type { StoredKeyInfo } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { KeyEditorRow } from './KeyRow';

/**
 * Keys of services that are not model providers, stored like provider keys (the same
 * routes, under the service id; the core's list is src-main/core/settings/serviceKeys.ts).
 */
export const SERVICE_KEY_ROWS = [{ id: 'bohrium', label: 'Bohrium Science Navigator', envVar: 'OPENAI4S_BOHRIUM_ACCESS_KEY' }] as const;

/** One service's key: stored or not, and the variable that overrides it. */
export function ServiceKeyRow({ service, stored, canStore }: { service: (typeof SERVICE_KEY_ROWS)[number]; stored: StoredKeyInfo | undefined; canStore: boolean }) {
  const t = useT();
  return (
    <KeyEditorRow
      id={service.id}
      label={service.label}
      status={
        <>
          <span className={`pill pill-${stored ? 'ok' : 'neutral'}`}>{stored ? t('system.providers.keySource.settings') : t('system.providers.keySource.none')}</span>{' '}
          <span className="muted small key-note">{t('settings.keys.serviceEnv', { variable: service.envVar })}</span>
        </>
      }
      stored={stored}
      canStore={canStore}
    />
  );
}
