import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openShell, saveShot, type Shell } from '../support/e2e/app';
import { ANSWER } from '../support/e2e/research';
import { startScriptedModel, type ScriptedModel } from '../support/scriptedModel';

/** A skill as a user (or another agent's collection) would drop it into `<data root>/skills`. */
const USER_SKILL = [
  '---',
  'name: gel-notes',
  'description: Read a gel image and note the band sizes against the ladder. Use for electrophoresis photos.',
  '---',
  '',
  '# Gel notes',
  '',
  'Compare each band with the ladder lane marker-7731 and report sizes in bp.',
  '',
].join('\n');

/**
 * Skills in the app against the real core: the Skills page lists the bundled and the
 * user's skills, switching one off takes it out of the next request's catalogue, and
 * `@name` in the composer attaches a skill (its text reaches the model).
 */
describe('skills: the Skills page and @ in the composer', () => {
  let browser: Browser;
  let shell: Shell;
  let model: ScriptedModel;

  beforeAll(async () => {
    browser = await launchChromium();
    const finish = { reply: [{ toolCall: { name: 'finalize_response', arguments: ANSWER } }] };
    model = await startScriptedModel([finish, finish]);
    shell = await openShell(browser, {
      locale: 'en-US',
      viewport: { width: 1440, height: 900 },
      env: {
        OPENAI4S_PROVIDER: 'openai',
        OPENAI4S_OPENAI_BASE_URL: model.baseUrl,
        OPENAI4S_OPENAI_API_KEY: 'sk-e2e-skills',
        OPENAI4S_OPENAI_MODEL: 'gpt-4o-mini',
        OPENAI4S_KERNEL_PREWARM: '0',
      },
    });
    await mkdir(path.join(shell.dataDir, 'skills', 'gel-notes'), { recursive: true });
    await writeFile(path.join(shell.dataDir, 'skills', 'gel-notes', 'SKILL.md'), USER_SKILL);
  });
  afterAll(async () => {
    await shell?.close();
    await model?.close();
    await browser?.close();
  });

  const row = (page: Page, name: string) => page.locator(`[data-testid="skill-row"][data-skill="${name}"]`);
  /** The system prompt and the user's text of the request whose message contains `marker`. */
  const requestWith = (marker: string) => {
    const found = model.requests.find((r) => JSON.stringify(r.body).includes(marker));
    const messages = (found?.body as { messages: { role: string; content: unknown }[] } | undefined)?.messages ?? [];
    const text = (role: string) => messages.filter((m) => m.role === role).map((m) => JSON.stringify(m.content)).join('\n');
    return { system: text('system'), user: text('user') };
  };

  it('lists bundled and user skills with their sources and shows a SKILL.md', async () => {
    const { page } = shell;
    await shell.open();
    await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
    await page.getByRole('button', { name: 'Skills' }).click();
    await page.getByRole('heading', { name: 'Skills', level: 1 }).waitFor();

    await row(page, 'insulin-quicklook').waitFor();
    expect(await row(page, 'insulin-quicklook').getByTestId('skill-source').textContent()).toBe('bundled');
    expect(await row(page, 'gel-notes').getByTestId('skill-source').textContent()).toBe('yours');
    expect(await row(page, 'insulin-quicklook').getAttribute('data-enabled')).toBe('true');

    await row(page, 'gel-notes').getByText('gel-notes', { exact: true }).click();
    const detail = page.locator('[data-testid="skill-detail"][data-skill="gel-notes"]');
    await detail.getByRole('heading', { name: 'Gel notes' }).waitFor();
    expect(await detail.textContent()).toContain(path.join(shell.dataDir, 'skills', 'gel-notes'));
    await page.evaluate('document.fonts.ready.then(() => true)');
    await saveShot(page, 'skills-page-en.png');
  });

  it('attaches a skill picked with @: its text follows the message the model receives', async () => {
    const { page } = shell;
    await page.getByRole('button', { name: 'Start' }).click();
    const box = page.getByTestId('composer-input');
    await box.fill('Size the bands of my gel ');
    await box.pressSequentially('@gel');
    const picker = page.getByTestId('skill-picker');
    await picker.getByRole('option', { name: /@gel-notes/ }).waitFor();
    await box.press('Enter');
    expect(await box.inputValue()).toBe('Size the bands of my gel @gel-notes ');
    await page.locator('[data-testid="skill-chip"][data-skill="gel-notes"]').waitFor();
    await box.press('Enter');

    await page.getByTestId('user-message').filter({ hasText: 'Size the bands of my gel' }).waitFor();
    await page.locator('[data-testid="run-footer"][data-status="completed"]').waitFor({ timeout: 60_000 });
    const first = requestWith('Size the bands of my gel');
    expect(first.user).toContain('Skills attached by the user');
    expect(first.user).toContain('marker-7731');
    // Every enabled skill is in the catalogue of the system prompt.
    expect(first.system).toContain('- insulin-quicklook:');
    expect(first.system).toContain('- gel-notes: Read a gel image and note the band sizes against the ladder.');

    // The kernel panel of the Notebook tab asks the real core: no kernel started yet.
    const python = page.locator('[data-testid="kernel-row"][data-language="python"]');
    await python.waitFor();
    expect(await python.getAttribute('data-state')).toBe('none');
    await page.evaluate('document.fonts.ready.then(() => true)');
    await saveShot(page, 'skills-attached-kernels-en.png');
  });

  it('a skill switched off on the Skills page is not in the next request’s catalogue', async () => {
    const { page } = shell;
    const sessionRow = page.getByTestId('session-row').first();
    await page.getByRole('button', { name: 'Skills' }).click();
    await page.getByRole('switch', { name: 'Use insulin-quicklook' }).click();
    await page.locator('[data-testid="skill-row"][data-skill="insulin-quicklook"][data-enabled="false"]').waitFor();

    await sessionRow.locator('.session-open').click();
    const box = page.getByTestId('composer-input');
    // The switched-off skill is no longer offered by @ either.
    await box.fill('');
    await box.pressSequentially('@insulin');
    expect(await page.getByTestId('skill-picker').textContent()).toBe('No enabled skill matches “insulin”.');
    await box.fill('Now without the insulin recipe.');
    await box.press('Enter');
    await page.getByTestId('user-message').filter({ hasText: 'Now without the insulin recipe.' }).waitFor();
    await expect.poll(() => requestWith('Now without the insulin recipe.').system).toContain('- gel-notes:');
    const second = requestWith('Now without the insulin recipe.');
    expect(second.system).not.toContain('insulin-quicklook');
    expect(shell.errors).toEqual([]);
  });
});
