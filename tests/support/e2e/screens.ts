import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { SCREENSHOT_DIR } from './app';

/** The window sizes, themes and languages every state of the workbench is shot in (issue 24). */
export const SIZES = [
  { width: 1440, height: 900 },
  { width: 1024, height: 700 },
] as const;
export const THEMES = ['light', 'dark'] as const;
export const LANGS = ['en', 'zh'] as const;

/** Where the state screenshots go: `test-results/screenshots/<state>-<w>x<h>-<theme>-<lang>.png` (gitignored). */
export const MATRIX_DIR = path.join(SCREENSHOT_DIR, 'screenshots');

/**
 * Switches the UI language with the header's own switch (中文 / English). A click from a
 * script, so it also works while a modal dialog makes the rest of the window inert (the
 * provider setup dialog); the strings run in the page, since this file is compiled without
 * the DOM library.
 */
export async function setLanguage(page: Page, lang: (typeof LANGS)[number]): Promise<void> {
  const current = String(await page.evaluate('document.documentElement.lang'));
  if (current.startsWith(lang)) return;
  const button = lang === 'zh' ? '中文' : 'English';
  await page.evaluate(`[...document.querySelectorAll('.app-header button')].find((b) => b.textContent.trim() === ${JSON.stringify(button)})?.click()`);
  await page.locator(`html[lang^="${lang}"]`).waitFor({ state: 'attached' });
}

export interface ShotOptions {
  /** A state about the side panel opens it where the width folded it (Ctrl+Shift+B, as a user would). */
  panel?: boolean;
  /** Scrolled into view before each picture. */
  focus?: Locator;
}

/**
 * Saves the page as it is now in every size × theme × language (eight files), then puts the
 * page back as it was. The theme follows the system's (emulated) colour scheme; the size
 * change lets the window's own width rules fold the panels at 1024 px.
 */
export async function shootMatrix(page: Page, state: string, options: ShotOptions = {}): Promise<string[]> {
  await mkdir(MATRIX_DIR, { recursive: true });
  const before = page.viewportSize() ?? { width: 1320, height: 860 };
  const lang = String(await page.evaluate('document.documentElement.lang')).startsWith('zh') ? 'zh' : 'en';
  const scheme = (await page.evaluate("matchMedia('(prefers-color-scheme: dark)').matches")) ? 'dark' : 'light';
  const files: string[] = [];
  for (const size of SIZES) {
    await page.setViewportSize(size);
    if (options.panel && (await page.getByTestId('right-panel').count()) === 0) {
      await page.keyboard.press('Control+Shift+B');
      await page.getByTestId('right-panel').waitFor();
    }
    for (const theme of THEMES) {
      await page.emulateMedia({ colorScheme: theme });
      await page.locator(`html[data-theme="${theme}"]`).waitFor({ state: 'attached' });
      for (const l of LANGS) {
        await setLanguage(page, l);
        if (options.focus) await options.focus.scrollIntoViewIfNeeded();
        // Strings, not functions (see setLanguage); the page's CSP allows evaluate, not waitForFunction strings.
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
