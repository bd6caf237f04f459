import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './app';

/** The window sizes, themes and languages every state of the workbench is shot in (issue 24). */
export const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
export const THEMES = ['light', 'dark'] as const;
export const LANGS = ['en', 'zh'] as const;

export const MATRIX_DIR = path.join(SCREENSHOT_DIR, 'screenshots');

/** Switches the UI language with the header's own switch (中文 / English). */
export async function setLanguage(page: Page, lang: (typeof LANGS)[number]): Promise<void> {
  const current = await page.evaluate('document.documentElement.lang');
  if (String(current).startsWith(lang)) return;
  await page.getByRole('banner').getByRole('group', { name: /^(Language|语言)$/ }).getByRole('button', { name: lang === 'zh' ? '中文' : 'English' }).click();
  await page.waitForFunction(`document.documentElement.lang.startsWith(${JSON.stringify(lang)})`);
}

/**
 * Saves the page as it is now in every size × theme × language, as
 * test-results/screenshots/<state>-<w>x<h>-<theme>-<lang>.png, then puts the page back as it
 * was. The theme follows the system's (emulated) colour scheme; the size change lets the
 * window's own width rules fold the panels at 1024 px (`panel`: open the side panel again).
 */
export async function shootMatrix(page: Page, state: string, options: { panel?: boolean } = {}): Promise<string[]> {
  await mkdir(MATRIX_DIR, { recursive: true });
  const before = page.viewportSize() ?? { width: 1320, height: 860 };
  const lang = String(await page.evaluate('document.documentElement.lang')).startsWith('zh') ? 'zh' : 'en';
  const scheme = (await page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")) ? 'dark' : 'light';
  const files: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    // A state that is about the side panel opens it where the width folded it (Ctrl+Shift+B, as a user would).
    if (options.panel && (await page.getByTestId('right-panel').count()) === 0) {
      await page.keyboard.press('Control+Shift+B');
      await page.getByTestId('right-panel').waitFor();
    }
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      for (const l of LANGS) {
        await setLanguage(page, l);
        await page.evaluate('document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))');
        const file = path.join(MATRIX_DIR, `${state}-${size.width}x${size.height}-${theme}-${l}.png`);
        await page.screenshot({ path: file });
        files.push(file);
      }
    }
  }
  await page.setViewportSize(before);
  await page.emulateMedia({ colorScheme: scheme });
  await setLanguage(page, lang);
  return files;
}
