import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, it } from 'vitest';
import { launchChromium, openShell, type Shell } from '../support/e2e/app';

describe('scratch', () => {
  let browser: Browser;
  let shell: Shell;
  let page: Page;
  beforeAll(async () => {
    browser = await launchChromium({});
    shell = await openShell(browser, { locale: 'zh-CN', viewport: { width: 1440, height: 900 }, env: { OPENAI4S_KERNEL_PREWARM: '0' } });
    page = shell.page;
    await shell.open();
  });
  afterAll(async () => {
    await shell?.close();
    await browser?.close();
  });
  it('small window', async () => {
    await page.waitForTimeout(1500);
    await page.screenshot({ path: '/work/tmpb/s0-start.png' });
    await page.getByTestId('demo-start-sidebar').click().catch(() => page.getByTestId('demo-start').click());
    await page.getByTestId('answer-card').waitFor({ timeout: 120_000 });
    await page.waitForTimeout(1500);
    await page.screenshot({ path: '/work/tmpb/s1-answer.png' });
    for (const name of ['证据', '产物', '计划', '记忆', '作业']) {
      const tab = page.getByRole('tab', { name });
      if (await tab.count()) {
        await tab.click();
        await page.waitForTimeout(700);
        await page.screenshot({ path: `/work/tmpb/s2-${name}.png` });
      }
    }
    for (const name of ['设置', '技能', '系统']) {
      await page.getByRole('button', { name }).first().click().catch(() => {});
      await page.waitForTimeout(1000);
      await page.screenshot({ path: `/work/tmpb/s3-${name}.png` });
    }
  }, 200_000);
});
