import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './app';

/** Where the state screenshots go: `test-results/screenshots/<state>-<w>x<h>-<theme>-<lang>.png` (gitignored). */
export const STATE_SHOT_DIR = path.join(SCREENSHOT_DIR, 'screenshots');

export const SHOT_SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
export const SHOT_THEMES = ['light', 'dark'] as const;
export const SHOT_LANGUAGES = [
  { code: 'en', lang: 'en', button: 'English' },
  { code: 'zh', lang: 'zh-CN', button: '中文' },
] as const;

/**
 * Switches the UI language with the header's switch. A JS click, so it also works while a
 * modal dialog makes the rest of the window inert (the setup dialog).
 */
async function setLanguage(page: Page, language: (typeof SHOT_LANGUAGES)[number]): Promise<void> {
  // Strings, not functions: this file is compiled without the DOM library (the page runs them).
  await page.evaluate(
    `[...document.querySelectorAll('.app-header button')].find((b) => b.textContent.trim() === ${JSON.stringify(language.button)})?.click()`,
  );
  // A locator, not waitForFunction: the app's CSP refuses string evaluation in the page.
  await page.locator(`html[lang="${language.lang}"]`).waitFor({ state: 'attached' });
}

/**
 * Saves one state of the window at 1440×900 and 1024×700, light and dark (the system
 * colour scheme the "system" theme follows), English and Chinese: eight files. `focus`
 * is scrolled into view before each picture. The page ends in English, light, at its size.
 */
export async function shootStates(page: Page, state: string, focus?: Locator): Promise<string[]> {
  await mkdir(STATE_SHOT_DIR, { recursive: true });
  const original = page.viewportSize();
  const files: string[] = [];
  for (const language of SHOT_LANGUAGES) {
    await setLanguage(page, language);
    for (const theme of SHOT_THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
      for (const size of SHOT_SIZES) {
        await page.setViewportSize(size);
        if (focus) await focus.scrollIntoViewIfNeeded();
        await page.evaluate('document.fonts.ready.then(() => true)');
        const file = path.join(STATE_SHOT_DIR, `${state}-${size.width}x${size.height}-${theme}-${language.code}.png`);
        await page.screenshot({ path: file });
        files.push(file);
      }
    }
  }
  await setLanguage(page, SHOT_LANGUAGES[0]);
  await page.emulateMedia({ colorScheme: 'light' });
  if (original) await page.setViewportSize(original);
  return files;
}
