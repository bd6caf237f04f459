import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll } from 'vitest';
import { startScriptedModel, type ScriptedModel } from '../scriptedModel';
import { launchChromium, openShell, type Shell, type ShellOptions } from './app';

/** What a describe block of e2e tests opens: its shells and scripted models, closed after each test. */
export interface E2eSuite {
  /** The block's Chromium (launched before its first test). */
  readonly browser: Browser;
  /** A shell over a fresh core and data directory, closed after the test. */
  openShell(options?: ShellOptions): Promise<Shell>;
  /** A scripted model on 127.0.0.1, closed after the test. */
  startModel(...args: Parameters<typeof startScriptedModel>): Promise<ScriptedModel>;
}

/**
 * Registers the hooks every e2e block needs: one Chromium for the block, and whatever a
 * test opened (shells, scripted models) closed after it, even when the test failed.
 * Call it at the top of a `describe`.
 */
export function e2eSuite(options: { webgl?: boolean } = {}): E2eSuite {
  let browser: Browser | null = null;
  let open: { close(): Promise<void> }[] = [];
  beforeAll(async () => {
    browser = await launchChromium(options);
  });
  afterEach(async () => {
    const closing = open;
    open = [];
    // Last opened first: a shell's core talks to the model started before it.
    for (const item of closing.reverse()) await item.close();
  });
  afterAll(async () => {
    await browser?.close();
  });
  const track = <T extends { close(): Promise<void> }>(item: T): T => {
    open.push(item);
    return item;
  };
  return {
    get browser() {
      if (!browser) throw new Error('e2eSuite: the browser is launched in beforeAll; use it inside a test.');
      return browser;
    },
    async openShell(shellOptions) {
      return track(await openShell(this.browser, shellOptions));
    },
    async startModel(...args) {
      return track(await startScriptedModel(...args));
    },
  };
}

/** The core's environment for a scripted model speaking the OpenAI wire at `baseUrl` (no kernel prewarm). */
export function scriptedModelEnv(baseUrl: string, apiKey: string, extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return {
    OPENAI4S_PROVIDER: 'openai',
    OPENAI4S_OPENAI_BASE_URL: baseUrl,
    OPENAI4S_OPENAI_API_KEY: apiKey,
    OPENAI4S_OPENAI_MODEL: 'gpt-4o-mini',
    OPENAI4S_KERNEL_PREWARM: '0',
    ...extra,
  };
}

/** Types a question into the composer of a fresh shell's start page and sends it (Enter). */
export async function askQuestion(page: Page, question: string): Promise<void> {
  await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
  const box = page.getByTestId('composer-input');
  await box.fill(question);
  await box.press('Enter');
}
