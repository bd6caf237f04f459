import { LANGUAGE_NAMES, LANGUAGES } from '../i18n/language';
import { useT } from '../i18n/useT';
import { useAppStore } from '../store/context';

/** 中文 / English, as a segmented control (the header and Settings show the same one). */
export function LanguageSwitch() {
  const t = useT();
  const language = useAppStore((s) => s.language);
  const setLanguage = useAppStore((s) => s.setLanguage);
  return (
    <div className="segmented" role="group" aria-label={t('header.language')}>
      {LANGUAGES.map((lang) => (
        <button
          key={lang}
          type="button"
          lang={lang}
          className={lang === language ? 'active' : undefined}
          aria-pressed={lang === language}
          onClick={() => setLanguage(lang)}
        >
          {LANGUAGE_NAMES[lang]}
        </button>
      ))}
    </div>
  );
}
