import { UI_LANGUAGES, chooseUiLanguage, isUiLanguage, type UiLanguage } from '../../../src-preload/contract/uiLanguage';
import { en } from './locales/en';
import { zhCN } from './locales/zh-CN';
import type { Dictionary, MessageKey } from './messages';
import { selectPlural } from './plural';

export const LANGUAGES = UI_LANGUAGES;
export type Language = UiLanguage;

/** Each language's name in itself, for the switch. */
export const LANGUAGE_NAMES: Record<Language, string> = { 'zh-CN': '中文', en: 'English' };

export const DICTIONARIES: Record<Language, Dictionary> = { 'zh-CN': zhCN, en };

export const LANGUAGE_STORAGE_KEY = 'openai4s.language';

export const isLanguage = isUiLanguage;

/** The user's saved choice, else the system's language (the rule main's dialogs follow too). */
export const chooseLanguage = chooseUiLanguage;

export type Params = Record<string, string | number>;

/**
 * Looks a key up, picks the plural form for `params.count` (the language's own rule;
 * `other` without a count) and fills `{name}` placeholders; an unknown placeholder
 * stays visible.
 */
export function translate(language: Language, key: MessageKey, params?: Params): string {
  const message = DICTIONARIES[language][key];
  const count = params?.count;
  const text =
    typeof message === 'string'
      ? message
      : selectPlural(language, message, typeof count === 'number' ? count : Number.NaN);
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name: string) =>
    name in params ? String(params[name]) : whole,
  );
}

/** The `{placeholders}` of a message, sorted (used by the completeness test). */
export function placeholdersOf(text: string): string[] {
  return [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!).sort();
}
