import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import type { SaveSettings } from './saveSettings';
import { Section } from './Section';

const MODES = ['auto', 'enforce', 'off'] as const;

/** The sandbox mode: the stored choice, else the mode the running kernels use. */
export function SandboxSection({ save }: { save: SaveSettings }) {
  const t = useT();
  const view = useAppStore((s) => s.settings.data);
  return (
    <Section
      title={t('system.sandbox.title')}
      note={t('settings.sandbox.note', { mode: view?.activeSandboxMode ?? '…' })}
    >
      <div className="radio-list" role="radiogroup" aria-label={t('system.sandbox.mode')}>
        {MODES.map((mode) => (
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
  );
}
