import { UI_LANGUAGES, type UiLanguage } from '../../src-preload/contract/settings';

/**
 * The language main's own dialogs speak: the window's, as it last told Settings; before a
 * window ever did, the rule the window itself starts with (Chinese when the system's first
 * language is any Chinese, else English).
 */
export function dialogLanguage(saved: unknown, systemLanguages: readonly string[]): UiLanguage {
  if ((UI_LANGUAGES as readonly unknown[]).includes(saved)) return saved as UiLanguage;
  const first = systemLanguages.find((l) => typeof l === 'string' && l.length > 0);
  return first && first.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}
