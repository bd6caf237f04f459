import { describe, expect, it } from 'vitest';
import {
  chooseLanguage,
  DICTIONARIES,
  LANGUAGES,
  placeholdersOf,
  translate,
} from '../../src-renderer/src/i18n/language';
import { en } from '../../src-renderer/src/i18n/messages';

describe('UI dictionary', () => {
  const keys = Object.keys(en).sort();

  it.each(LANGUAGES)('%s has exactly the keys of the English dictionary, none empty', (lang) => {
    const dict = DICTIONARIES[lang];
    expect(Object.keys(dict).sort()).toEqual(keys);
    for (const key of keys) expect(dict[key as keyof typeof dict].trim(), key).not.toBe('');
  });

  it('uses the same {placeholders} in every language', () => {
    for (const key of keys) {
      const expected = placeholdersOf(en[key as keyof typeof en]);
      for (const lang of LANGUAGES) {
        expect(
          placeholdersOf(DICTIONARIES[lang][key as keyof typeof en]),
          `${lang} ${key}`,
        ).toEqual(expected);
      }
    }
  });

  it('really is Chinese in zh-CN where the English text is prose', () => {
    const han = /\p{Script=Han}/u;
    const untranslated = keys.filter((key) => {
      const enText = en[key as keyof typeof en];
      const zhText = DICTIONARIES['zh-CN'][key as keyof typeof en];
      // Names (OpenAI4S, Node.js, Electron) are the same in both; prose must be translated.
      return /\s/.test(enText) && /[a-z]{3}/.test(enText) && !han.test(zhText);
    });
    expect(untranslated).toEqual([]);
  });

  it('fills placeholders and leaves unknown ones visible', () => {
    expect(translate('en', 'system.checkedAt', { time: '10:00' })).toBe('Checked 10:00');
    expect(translate('zh-CN', 'system.checkedAt', { time: '10:00' })).toBe('检测于 10:00');
    expect(translate('en', 'system.checkedAt', {})).toBe('Checked {time}');
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
