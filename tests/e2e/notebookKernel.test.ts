import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openShell, saveShot, type Shell } from '../support/e2e/app';

/**
 * A notebook cell against the real core: the user's cell goes through `kernel.execute`
 * into the session's sandboxed Python kernel (the one way a user runs code; the old
 * kernel-panel box is gone), and the cell shows what it printed, or its error.
 */
describe('A notebook cell in the session’s kernel', () => {
  let browser: Browser;
  let shell: Shell;

  beforeAll(async () => {
    browser = await launchChromium();
    shell = await openShell(browser, {
      locale: 'en-US',
      viewport: { width: 1440, height: 900 },
      env: { OPENAI4S_KERNEL_PREWARM: '0' },
    });
  });
  afterAll(async () => {
    await shell?.close();
    await browser?.close();
  });

  it('runs print(6*7) with Ctrl+Enter in the sandboxed Python kernel and shows 42, then an error with its traceback, in one kernel', async () => {
    const { page } = shell;
    shell.core.ledger.createSession('Scratch');
    await shell.open();
    await page.getByTestId('session-row').first().click();
    await page.getByRole('tab', { name: 'Notebook' }).click();
    const python = page.locator('[data-testid="kernel-row"][data-language="python"]');
    await python.waitFor();
    expect(await python.getAttribute('data-state')).toBe('none');

    const notebook = page.getByTestId('user-notebook');
    await notebook.getByTestId('notebook-add-python').click();
    const cell = notebook.getByTestId('user-cell').first();
    const box = cell.getByTestId('user-cell-input');
    await box.fill('print(6*7)');
    await box.press('Control+Enter');
    const result = cell.getByTestId('user-cell-result');
    await result.getByTestId('cell-card').waitFor({ timeout: 60_000 });
    expect(await result.getByTestId('cell-card').getAttribute('data-status')).toBe('ok');
    expect(await result.getByTestId('cell-output').textContent()).toBe('42\n');
    // The kernel started for it, confined by the sandbox, and the row says so.
    await page.locator('[data-testid="kernel-row"][data-language="python"][data-state="idle"]').waitFor();
    expect(await python.getByTestId('kernel-sandbox').textContent()).toBe('sandboxed (bwrap)');

    // A failing line is shown with its traceback.
    await box.fill('answer = 42\nanswer / 0');
    await cell.getByTestId('user-cell-run').click();
    await result.locator('[data-testid="cell-card"][data-status="error"]').waitFor({ timeout: 60_000 });
    const error = result.getByTestId('cell-error');
    expect(await error.locator('strong').textContent()).toBe('ZeroDivisionError: division by zero');
    expect(await error.textContent()).toContain('line 2');
    expect(await error.locator('pre').textContent()).toContain('answer / 0');
    await page.evaluate('document.fonts.ready.then(() => true)');
    await saveShot(page, 'notebook-cell-error-en.png');

    // The kernel kept what the failing cell assigned before it failed.
    await box.fill('print(answer + 1)');
    await box.press('Control+Enter');
    await result.locator('[data-testid="cell-card"][data-status="ok"]').waitFor({ timeout: 60_000 });
    expect(await result.getByTestId('cell-output').textContent()).toBe('43\n');
    expect(shell.errors).toEqual([]);
  });
});

/**
 * A kernel that dies under the user's cell, in a Chinese window: main names how it ended
 * (KernelExitCause), so the cell card and the kernel row say it in Chinese, not in main's
 * English words.
 */
describe('A kernel death in a Chinese window', () => {
  let browser: Browser;
  let shell: Shell;

  beforeAll(async () => {
    browser = await launchChromium();
    shell = await openShell(browser, {
      locale: 'zh-CN',
      viewport: { width: 1280, height: 800 },
      env: { OPENAI4S_KERNEL_PREWARM: '0' },
    });
  });
  afterAll(async () => {
    await shell?.close();
    await browser?.close();
  });

  it('says that SIGKILL ended the Python kernel and its variables are gone, on the cell card and in the kernel row', async () => {
    const { page } = shell;
    shell.core.ledger.createSession('草稿');
    await shell.open();
    await page.getByTestId('session-row').first().click();
    await page.getByRole('tab', { name: '笔记本' }).click();
    const notebook = page.getByTestId('user-notebook');
    await notebook.getByTestId('notebook-add-python').click();
    const cell = notebook.getByTestId('user-cell').first();
    await cell.getByTestId('user-cell-input').fill('import os\nx = 1\nos.kill(os.getpid(), 9)');
    await cell.getByTestId('user-cell-run').click();
    const card = cell.getByTestId('user-cell-result').locator('[data-testid="cell-card"][data-status="died"]');
    await card.waitFor({ timeout: 60_000 });
    const died = card.getByTestId('cell-died');
    expect(await died.locator('strong').textContent()).toBe('Python 内核被 SIGKILL 终止。');
    expect(await died.textContent()).toMatch(/变量、导入和打开的图形均已丢失（第 [0-9a-f]{8} 代）/);
    const reason = page.locator('[data-testid="kernel-row"][data-language="python"]').getByTestId('kernel-reason');
    await reason.waitFor();
    expect(await reason.textContent()).toMatch(/^第 [0-9a-f]{8} 代内核被 SIGKILL 终止，其变量已丢失$/);
    expect(await page.locator('body').textContent()).not.toMatch(/killed by|its variables are gone/);
    await saveShot(page, 'notebook-kernel-died-zh.png');
    expect(shell.errors).toEqual([]);
  });
});

