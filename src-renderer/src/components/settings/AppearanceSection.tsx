import type { MessageKey } from '../../i18n/messages';
import { useT } from '../../i18n/useT';
import { useAppStore } from '../../store/context';
import type { ThemeChoice } from '../../store/types';
import { LanguageSwitch } from '../LanguageSwitch';
import { Section } from './Section';

const THEMES: readonly ThemeChoice[] = ['system', 'light', 'dark'];

/** Language and theme (both kept in this window's storage, not in the app's settings). */
export function AppearanceSection() {
  const t = useT();
  const theme = useAppStore((s) => s.theme);
  const setTheme = useAppStore((s) => s.setTheme);
  return (
    <Section title={t('settings.appearance.title')}>
      <div className="settings-row">
        <LanguageSwitch />
        <div className="segmented" role="group" aria-label={t('settings.theme')}>
          {THEMES.map((choice) => (
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
  );
}
