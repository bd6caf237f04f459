/**
 * The languages of the window and of main's own dialogs, and the one rule that picks one.
 * Pure and dependency-free: the renderer runs it at start, main for its dialogs and menu
 * before (or without) a window telling it the language.
 */

export const UI_LANGUAGES = ['zh-CN', 'en'] as const;
export type UiLanguage = (typeof UI_LANGUAGES)[number];

export function isUiLanguage(value: unknown): value is UiLanguage {
  return typeof value === 'string' && (UI_LANGUAGES as readonly string[]).includes(value);
}

/** The user's saved choice wins; otherwise Chinese when the system's first language is any Chinese, else English. */
export function chooseUiLanguage(saved: unknown, systemLanguages: readonly string[]): UiLanguage {
  if (isUiLanguage(saved)) return saved;
  const first = systemLanguages.find((l) => typeof l === 'string' && l.length > 0);
  return first && first.toLowerCase().startsWith('zh') ? 'zh-CN' : 'en';
}
