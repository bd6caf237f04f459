import { describe, expect, it } from 'vitest';
import {
  chooseLanguage,
  DICTIONARIES,
  LANGUAGES,
  placeholdersOf,
  translate,
} from '../../src-renderer/src/i18n/language';
import { en } from '../../src-renderer/src/i18n/locales/en';
import type { MessageKey } from '../../src-renderer/src/i18n/messages';
import { formsOf, pluralCategories } from '../../src-renderer/src/i18n/plural';

describe('UI dictionary', () => {
  const keys = Object.keys(en).sort() as MessageKey[];

  it.each(LANGUAGES)('%s has exactly the keys of the English dictionary, none empty', (lang) => {
    const dict = DICTIONARIES[lang];
    expect(Object.keys(dict).sort()).toEqual(keys);
    for (const key of keys)
      for (const text of formsOf(dict[key])) expect(text.trim(), key).not.toBe('');
  });

  it('uses the same {placeholders} in every language and every plural form', () => {
    for (const key of keys) {
      const expected = placeholdersOf(formsOf(en[key])[0]!);
      for (const lang of LANGUAGES) {
        for (const text of formsOf(DICTIONARIES[lang][key]))
          expect(placeholdersOf(text), `${lang} ${key}`).toEqual(expected);
      }
    }
  });

  it.each(LANGUAGES)(
    '%s gives a plural message a form for every plural category of the language',
    (lang) => {
      for (const key of keys) {
        const message = DICTIONARIES[lang][key];
        expect(typeof message, `${lang} ${key}`).toBe(typeof en[key]);
        if (typeof message === 'string') continue;
        expect(Object.keys(message).sort(), `${lang} ${key}`).toEqual(
          [...pluralCategories(lang)].sort(),
        );
        expect(placeholdersOf(message.other), `${lang} ${key}`).toContain('count');
      }
    },
  );

  it('really is Chinese in zh-CN where the English text is prose', () => {
    const han = /\p{Script=Han}/u;
    const untranslated = keys.filter((key) => {
      const enText = formsOf(en[key]).join(' ');
      const zhText = formsOf(DICTIONARIES['zh-CN'][key]).join(' ');
      // Names (OpenAI4S, Node.js, Electron) are the same in both; prose must be translated.
      return /\s/.test(enText) && /[a-z]{3}/.test(enText) && !han.test(zhText);
    });
    expect(untranslated).toEqual([]);
  });

  it('chooses plural forms by the language’s rule on the count', () => {
    expect(translate('en', 'panel.artifacts.versions', { count: 1 })).toBe('1 version');
    expect(translate('en', 'panel.artifacts.versions', { count: 0 })).toBe('0 versions');
    expect(translate('en', 'panel.artifacts.versions', { count: 2 })).toBe('2 versions');
    expect(translate('en', 'conv.turns', { count: 1 })).toBe('1 turn');
    expect(translate('zh-CN', 'panel.artifacts.versions', { count: 1 })).toBe('1 个版本');
    expect(translate('zh-CN', 'export.done', { count: 1 })).toBe('已导出 1 个文件');
    // No count: the general form, with the placeholder left visible.
    expect(translate('en', 'export.done')).toBe('Exported {count} files');
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('en', 'system.checkedAt', { time: '10:00' })).toBe('Checked 10:00');
    expect(translate('zh-CN', 'system.checkedAt', { time: '10:00' })).toBe('检测于 10:00');
    expect(translate('en', 'system.checkedAt', {})).toBe('Checked {time}');
  });
});

/** The renderer's source outside i18n/, where messages are used (read by Vite as text). */
function rendererSource(): string {
  const files = import.meta.glob<string>(
    ['../../src-renderer/src/**/*.{ts,tsx}', '!../../src-renderer/src/i18n/**'],
    { query: '?raw', import: 'default', eager: true },
  );
  const sources = Object.values(files);
  if (sources.length < 20) throw new Error(`read only ${sources.length} renderer files`);
  return sources.join('\n');
}

describe('no unused messages', () => {
  it('uses every key: as a quoted literal, or under a `prefix.${…}` template key', () => {
    const source = rendererSource();
    const prefixes = [...source.matchAll(/`([a-zA-Z]+(?:\.[a-zA-Z]+)*\.)\$\{/g)].map((m) => m[1]!);
    const quoted = (key: string) =>
      ["'", '"', '`'].some((q) => source.includes(`${q}${key}${q}`));
    const unused = Object.keys(en).filter(
      (key) => !quoted(key) && !prefixes.some((prefix) => key.startsWith(prefix)),
    );
    expect(unused).toEqual([]);
  });
});

describe('language choice', () => {
  it('defaults to Chinese when the system language is any Chinese variant', () => {
    expect(chooseLanguage(null, ['zh-CN', 'en-US'])).toBe('zh-CN');
    expect(chooseLanguage(null, ['zh-TW'])).toBe('zh-CN');
    expect(chooseLanguage(null, ['zh'])).toBe('zh-CN');
    expect(chooseLanguage(undefined, ['ZH-hans-CN'])).toBe('zh-CN');
  });

  it('defaults to English otherwise, judged by the first system language', () => {
    expect(chooseLanguage(null, ['en-US', 'zh-CN'])).toBe('en');
    expect(chooseLanguage(null, ['de-DE'])).toBe('en');
    expect(chooseLanguage(null, [])).toBe('en');
    expect(chooseLanguage(null, [''])).toBe('en');
  });

  it('lets a saved choice win over the system, and ignores a saved value it does not know', () => {
    expect(chooseLanguage('en', ['zh-CN'])).toBe('en');
    expect(chooseLanguage('zh-CN', ['en-US'])).toBe('zh-CN');
    expect(chooseLanguage('fr', ['zh-CN'])).toBe('zh-CN');
  });
});
