import { useEffect, useState } from 'react';
import type { ErrorBody } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import { PageHead } from '../ui';
import { AppearanceSection } from './AppearanceSection';
import { CellLimitSection } from './CellLimitSection';
import { DataDirSection } from './DataDirSection';
import { DefaultsSection } from './DefaultsSection';
import { EnvironmentsSection } from './EnvironmentsSection';
import { KeysSection } from './KeysSection';
import { RulesSection } from './RulesSection';
import { SandboxSection } from './SandboxSection';
import { SkillFoldersSection } from './SkillFoldersSection';
import { McpServersSection } from './McpServersSection';
import { ComputeTargetsSection } from './ComputeTargetsSection';
import type { SaveSettings } from './saveSettings';
import { envelopeErrorText } from '../../errors/envelopeText';

/** Providers and keys, defaults, sandbox, approval rules, language, theme, data directory. */
export function SettingsPanel() {
  const t = useT();
  const loadError = useAppStore((s) => s.settings.error);
  const doctor = useAppStore((s) => s.doctor);
  const load = useAppStore((s) => s.loadSettings);
  const loadRules = useAppStore((s) => s.loadRules);
  const loadDoctor = useAppStore((s) => s.loadDoctor);
  const loadProviders = useAppStore((s) => s.loadProviders);
  const update = useAppStore((s) => s.updateSettings);
  const [saveError, setSaveError] = useState<ErrorBody | null>(null);

  useEffect(() => {
    void load();
    void loadRules();
    if (doctor.status === 'idle') void loadDoctor();
    void loadProviders(true);
    // Settings are read fresh each time the page opens.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const providers = doctor.report?.providers ?? [];
  const save: SaveSettings = async (patch) => setSaveError(await update(patch));

  return (
    <section className="system settings" aria-labelledby="settings-title">
      <PageHead id="settings-title" title={t('settings.title')} subtitle={t('settings.subtitle')} />
      {loadError ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, loadError)}
        </div>
      ) : null}
      {saveError ? (
        <div className="alert" role="alert">
          {envelopeErrorText(t, saveError)}
        </div>
      ) : null}
      <div className="settings-grid">
        <KeysSection />
        <DefaultsSection providers={providers} save={save} />
        <SandboxSection save={save} />
        <CellLimitSection save={save} />
        <SkillFoldersSection save={save} />
        <EnvironmentsSection />
        <McpServersSection />
        <ComputeTargetsSection />
        <RulesSection />
        <AppearanceSection />
        <DataDirSection />
      </div>
    </section>
  );
}
