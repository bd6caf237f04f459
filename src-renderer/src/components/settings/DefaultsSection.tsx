import { useState } from 'react';
import type { ProviderReport } from '../../../../src-preload/contract';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import type { SaveSettings } from './saveSettings';
import { Section } from './Section';
import { providerName } from '../providerName';

/** The default provider and model of new messages (the model id is saved when the field loses focus). */
export function DefaultsSection({
  providers,
  save,
}: {
  providers: readonly ProviderReport[];
  save: SaveSettings;
}) {
  const t = useT();
  const settings = useAppStore((s) => s.settings.data?.settings);
  const [modelDraft, setModelDraft] = useState<string | null>(null);
  return (
    <Section title={t('settings.defaults.title')} note={t('settings.defaults.note')}>
      <div className="settings-row">
        <label>
          <span>{t('composer.provider')}</span>
          <select
            value={settings?.defaultProvider ?? ''}
            onChange={(e) => void save({ defaultProvider: e.target.value || null })}
            data-testid="default-provider"
          >
            <option value="">{t('settings.defaults.fromEnv')}</option>
            {providers.map((p) => (
              <option key={p.id} value={p.id}>
                {providerName(p, t)}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>{t('composer.model')}</span>
          <input
            className="mono"
            value={modelDraft ?? settings?.defaultModel ?? ''}
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
  );
}
