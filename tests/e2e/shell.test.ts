import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONTENT_SECURITY_POLICY } from '../../src-main/electron/origin';
import { launchChromium, openShell, saveScreenshot } from '../support/e2e/app';

/**
 * The production renderer in Debian's Chromium, talking to the real core of this
 * process through the same `window.openai4s` the preload provides.
 */
describe('renderer shell against the real core', () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
  });

  it('renders the shell and the System panel with this machine’s doctor report', async () => {
    const shell = await openShell(browser, { locale: 'en-US' });
    const { page } = shell;
    try {
      const response = await shell.open();
      expect(response?.status()).toBe(200);
      expect(response?.headers()['content-security-policy']).toBe(CONTENT_SECURITY_POLICY);

      await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
      expect(await page.getByTestId('example-prompt').textContent()).toContain(
        'human insulin (INS)',
      );
      expect(await page.getByRole('button', { name: /New session/ }).isEnabled()).toBe(true);
      expect(await page.getByText('No sessions yet').isVisible()).toBe(true);

      await page.getByRole('button', { name: 'System', exact: true }).click();
      await page.getByTestId('doctor-report').waitFor({ timeout: 45_000 });

      // What this machine really has (Debian: python3 with the science stack, bwrap).
      expect(await page.getByTestId('python-path').textContent()).toContain('/usr/bin/python3');
      expect(await page.getByTestId('python-numpy').textContent()).toMatch(/^\d+\.\d+/);
      expect(await page.getByTestId('python-pandas').textContent()).toMatch(/^\d+\.\d+/);
      expect(await page.getByTestId('python-matplotlib').textContent()).toMatch(/^\d+\.\d+/);
      expect(await page.getByTestId('sandbox-backend').textContent()).toContain('bwrap');
      expect(await page.getByTestId('sandbox-available').textContent()).toBe('yes');
      const dataDir = await page.getByTestId('data-dir').textContent();
      expect(dataDir).toContain(shell.dataDir);
      expect(dataDir).toContain('set by OPENAI4S_DATA_DIR');

      // The page shows exactly what the core reports (the cached report of this core).
      const report = await shell.core.doctor();
      expect(await page.getByTestId('python-version').textContent()).toBe(report.python.version);
      expect(await page.getByTestId('node-version').textContent()).toBe(report.node);
      expect(
        await page
          .locator('[data-testid^="provider-"]:not([data-testid="provider-default"])')
          .count(),
      ).toBe(report.providers.length);
      const defaultRow = page.getByTestId(`provider-${report.defaultProvider}`);
      expect(await defaultRow.getByTestId('provider-default').count()).toBe(1);
      // A local provider needs no key: its row says so rather than "no key".
      await expect.poll(() => page.getByTestId('provider-ollama').getByTestId('key-source').textContent()).toBe('not needed');
      expect(await page.getByTestId('provider-openai').getByTestId('key-source').textContent()).toMatch(/^(no key|environment|\.env file|Settings)/);
      if (report.r)
        expect(await page.getByTestId('r-jsonlite').textContent()).toBe(
          report.r.jsonlite ?? 'not found',
        );

      // Never a key on screen, whatever keys the environment holds.
      const html = await page.content();
      for (const [name, value] of Object.entries(process.env)) {
        if (/API_KEY$/.test(name) && value && value.length >= 8) expect(html).not.toContain(value);
      }

      // Refresh asks the core to probe again; the panel shows the new report.
      const before = await page.getByTestId('checked-at').getAttribute('data-generated-at');
      expect(before).toBe(report.generatedAt);
      await page.getByRole('button', { name: 'Refresh' }).click();
      await page
        .locator(`[data-testid="checked-at"]:not([data-generated-at="${before}"])`)
        .waitFor({ timeout: 45_000 });
      expect(await page.getByTestId('checked-at').getAttribute('data-generated-at')).toBe(
        (await shell.core.doctor()).generatedAt,
      );
      await page.getByRole('button', { name: 'Refresh' }).waitFor();

      const file = await saveScreenshot(page, 'shell-system-panel.png');
      expect(existsSync(file)).toBe(true);

      expect(shell.served.blocked).toEqual([]);
      expect(shell.errors).toEqual([]);
    } finally {
      await shell.close();
    }
  });

  it('switches language in the header and keeps the choice across reloads', async () => {
    const shell = await openShell(browser, { locale: 'en-US' });
    const { page } = shell;
    try {
      await shell.open();
      await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
      expect(await page.evaluate('document.documentElement.lang')).toBe('en');

      await page.getByRole('button', { name: '中文' }).click();
      await page.getByRole('heading', { name: '提出一个研究问题' }).waitFor();
      expect(await page.getByRole('button', { name: '系统', exact: true }).isVisible()).toBe(true);
      await saveScreenshot(page, 'shell-welcome-zh.png');
      expect(await page.evaluate('document.documentElement.lang')).toBe('zh-CN');

      await page.reload();
      await page.getByRole('heading', { name: '提出一个研究问题' }).waitFor();

      await page.getByRole('button', { name: 'English' }).click();
      await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
      expect(shell.errors).toEqual([]);
    } finally {
      await shell.close();
    }
  });

  it('starts in Chinese on a Chinese system and renders the dark theme', async () => {
    const shell = await openShell(browser, { locale: 'zh-CN', colorScheme: 'dark' });
    const { page } = shell;
    try {
      await shell.open();
      await page.getByRole('heading', { name: '提出一个研究问题' }).waitFor();
      await page.getByRole('button', { name: '系统', exact: true }).click();
      await page.getByTestId('doctor-report').waitFor({ timeout: 45_000 });
      expect(await page.getByTestId('sandbox-backend').textContent()).toContain('bwrap');
      const background = await page.evaluate('getComputedStyle(document.body).backgroundColor');
      expect(background).toBe('rgb(22, 24, 29)');
      await saveScreenshot(page, 'shell-system-panel-dark.png');
      expect(shell.errors).toEqual([]);
    } finally {
      await shell.close();
    }
  });

  it('delivers events pushed by main to the renderer’s `on` listeners', async () => {
    const shell = await openShell(browser, { locale: 'en-US' });
    const { page } = shell;
    try {
      await shell.open();
      await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
      // The window says the code's sentence from the params (main's message is the fallback).
      await shell.emit('app.notice', {
        level: 'warning',
        code: 'report_open_failed',
        message: 'main’s fallback words',
        params: { path: '/data/received/s1/README.md', message: 'no application for text/markdown' },
      });
      const notice = page
        .getByRole('status')
        .filter({ hasText: 'The package’s report did not open (no application for text/markdown). It is at /data/received/s1/README.md' });
      await notice.waitFor();
      await notice.getByRole('button', { name: 'Dismiss' }).click();
      await notice.waitFor({ state: 'detached' });
    } finally {
      await shell.close();
    }
  });

  it('receives only the topics the renderer listens to: kernel output does not cross to the page', async () => {
    const shell = await openShell(browser, { locale: 'en-US' });
    const { page, subscriptions } = shell;
    const heard = () => ['app.notice', 'session.stream', 'kernel.output', 'kernel.lifecycle'].filter((t) => subscriptions.hears(1, t));
    try {
      await shell.open();
      await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
      // The store's listeners, reported by the production preload.
      await expect.poll(heard).toEqual(['app.notice', 'session.stream']);

      const caller = { origin: new URL(page.url()).origin, isMainFrame: true };
      const created = (await shell.router.handle('session.create', { title: 'topics' }, caller)) as { ok: true; data: { id: string } };
      const before = { ...shell.forwarded };
      const cell = (await shell.router.handle('kernel.execute', { sessionId: created.data.id, language: 'python', code: 'print("once")' }, caller)) as { ok: boolean; data: { stdout: string } };
      expect(cell).toMatchObject({ ok: true, data: { stdout: 'once\n' } });
      // The cell emitted kernel.lifecycle and kernel.output; the page heard neither.
      expect(shell.forwarded.emitted).toBeGreaterThan(before.emitted);
      expect(shell.forwarded.forwarded).toBe(before.forwarded);

      // A reload starts from nothing and the new document subscribes again.
      await page.reload();
      await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
      await expect.poll(heard).toEqual(['app.notice', 'session.stream']);
    } finally {
      await shell.close();
    }
  });

  it('runs under the app’s CSP: an injected inline script is refused', async () => {
    const shell = await openShell(browser, { locale: 'en-US' });
    const { page } = shell;
    try {
      await shell.open();
      await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
      const ran = await page.evaluate(`(() => {
        const s = document.createElement('script');
        s.textContent = 'window.__inlineRan = true';
        document.body.appendChild(s);
        return window.__inlineRan === true;
      })()`);
      expect(ran).toBe(false);
      expect(shell.errors.some((e) => e.includes('Content Security Policy'))).toBe(true);
    } finally {
      await shell.close();
    }
  });

  it('answers the main frame only: a sub-frame’s call is refused like in the app', async () => {
    const shell = await openShell(browser, { locale: 'en-US' });
    const { page } = shell;
    try {
      await shell.open();
      await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
      const main = (await page.evaluate(
        'window.openai4s.invoke("doctor.get", {}).then((e) => e.ok)',
      )) as boolean;
      expect(main).toBe(true);
      await page.evaluate(`(() => {
        const f = document.createElement('iframe');
        f.srcdoc = '<p>child</p>';
        document.body.appendChild(f);
        return new Promise((resolve) => f.addEventListener('load', resolve));
      })()`);
      const child = page.frames().find((f) => f !== page.mainFrame());
      expect(child).toBeDefined();
      const answer = await child!.evaluate('window.openai4s.invoke("doctor.get", {})');
      expect(answer).toMatchObject({ ok: false, error: { code: 'forbidden_sender' } });
    } finally {
      await shell.close();
    }
  });
});
