import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { Section } from './Section';

/** Where the ledger, artifacts and workspaces live, and what decided it. */
export function DataDirSection() {
  const t = useT();
  const view = useAppStore((s) => s.settings.data);
  return (
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
  );
}
