import { describe, expect, it } from 'vitest';
import { memorySecretStore } from '../../src-main/core/settings/secretStore';
import { saveScreenshot } from '../support/e2e/app';
import { e2eSuite } from '../support/e2e/suite';

const KEY = 'sk-ant-e2e-secret-value-31337';

describe('Settings against the real core', () => {
  const e2e = e2eSuite();

  it('stores a key that is never shown again, sets defaults, theme and language', async () => {
    const shell = await e2e.openShell({
      locale: 'en-US',
      env: {
        OPENAI4S_ANTHROPIC_API_KEY: '',
        OPENAI4S_LLM_API_KEY: '',
        OPENAI4S_KERNEL_PREWARM: '0',
      },
      secrets: memorySecretStore(),
      viewport: { width: 1320, height: 900 },
    });
    const { page } = shell;
    await shell.open();
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Provider keys' }).waitFor();
    const row = page.getByTestId('key-row-anthropic');
    await row.getByText('needs a key').waitFor({ timeout: 45_000 });
    expect(await row.getByTestId('key-source').textContent()).toBe('no key');
    // A local provider needs none, and says so.
    expect(await page.getByTestId('key-row-ollama').getByTestId('key-source').textContent()).toBe('not needed');

    await row.getByLabel('API key for Anthropic').fill(KEY);
    await row.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('key-hint-anthropic').getByText('••••1337').waitFor();
    await row.getByText('ready', { exact: true }).waitFor();
    expect(await row.getByLabel('API key for Anthropic').inputValue()).toBe('');
    expect(await page.content()).not.toContain(KEY);
    const report = await shell.core.doctor();
    expect(report.providers.find((p) => p.id === 'anthropic')).toMatchObject({
      configured: true,
      keySource: 'settings',
    });

    // Defaults are stored by the core.
    await page.getByTestId('default-provider').selectOption('anthropic');
    await page.getByTestId('default-model').fill('claude-sonnet-4-5');
    await page.getByTestId('default-model').blur();
    await expect
      .poll(() => shell.core.settings.read())
      .toMatchObject({ defaultProvider: 'anthropic', defaultModel: 'claude-sonnet-4-5' });
    // The radio is controlled by the stored setting: it turns checked once the core answered.
    const enforce = page.getByRole('radio', { name: /enforce/ });
    await enforce.click();
    await expect.poll(() => shell.core.settings.read().sandboxMode).toBe('enforce');
    await expect.poll(() => enforce.isChecked()).toBe(true);
    expect(await page.getByTestId('settings-data-dir').textContent()).toBe(shell.dataDir);
    await saveScreenshot(page, 'workbench-settings-en.png');

    // The composer now uses the default provider.
    await page.getByRole('button', { name: 'Start', exact: true }).click();
    expect(await page.getByTestId('provider-picker').inputValue()).toBe('anthropic');

    // Theme and language.
    await page.getByRole('button', { name: 'Settings', exact: true }).click();
    await page.getByRole('button', { name: 'Dark', exact: true }).click();
    expect(await page.evaluate('getComputedStyle(document.body).backgroundColor')).toBe(
      'rgb(22, 24, 29)',
    );
    await page
      .getByRole('group', { name: 'Language' })
      .last()
      .getByRole('button', { name: '中文' })
      .click();
    await page.getByRole('heading', { name: '服务商密钥' }).waitFor();
    await saveScreenshot(page, 'workbench-settings-zh-dark.png');
    await page.reload();
    expect(await page.evaluate('document.documentElement.dataset.theme')).toBe('dark');

    // Removing the key.
    await page.getByRole('button', { name: '设置', exact: true }).click();
    await page.getByTestId('key-row-anthropic').getByRole('button', { name: '移除' }).click();
    await page.getByTestId('key-hint-anthropic').getByText('—').waitFor();
    expect(shell.errors).toEqual([]);
  }, 90_000);
});
