import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openShell, saveShot, type Shell } from '../support/e2e/app';
import { ANSWER } from '../support/e2e/research';
import { startScriptedModel, type ScriptedModel } from '../support/scriptedModel';

/**
 * Issue 25, the workspace file browser against the real core: a notebook cell writes a
 * table and plants a symlink (the review refuses one that points outside); the browser lists both (the
 * link as a link, never opened), opens the folder, previews the table as text, attaches it
 * to the next message (a chip with its workspace path, named in the request the model gets),
 * and saves it as an artifact version made by the user.
 */
describe('Workspace files in the Notebook tab', () => {
  let browser: Browser;
  let shell: Shell;
  let model: ScriptedModel;

  beforeAll(async () => {
    browser = await launchChromium();
    model = await startScriptedModel([{ reply: [{ toolCall: { name: 'finalize_response', arguments: ANSWER } }] }]);
    shell = await openShell(browser, {
      locale: 'en-US',
      viewport: { width: 1440, height: 1000 },
      env: {
        OPENAI4S_KERNEL_PREWARM: '0',
        OPENAI4S_PROVIDER: 'openai',
        OPENAI4S_OPENAI_BASE_URL: model.baseUrl,
        OPENAI4S_OPENAI_API_KEY: 'sk-e2e-files',
        OPENAI4S_OPENAI_MODEL: 'gpt-4o-mini',
      },
    });
  });
  afterAll(async () => {
    await shell?.close();
    await model?.close();
    await browser?.close();
  });

  it('lists what a cell wrote, previews it, attaches it and saves it as an artifact; a planted link is never opened', async () => {
    const { page } = shell;
    const session = shell.core.ledger.createSession('Files');
    await shell.open();
    await page.getByTestId('session-row').first().click();
    await page.getByRole('tab', { name: 'Notebook' }).click();
    const notebook = page.getByTestId('user-notebook');
    await notebook.getByTestId('notebook-add-python').click();
    const cell = notebook.getByTestId('user-cell').first();
    await cell
      .getByTestId('user-cell-input')
      .fill('import os\nos.makedirs("results", exist_ok=True)\nopen("results/counts.csv", "w").write("residue,count\\nA,10\\nC,6\\n")\nos.symlink("results/counts.csv", "leak")');
    await cell.getByTestId('user-cell-run').click();
    await notebook.locator('[data-testid="user-cell"][data-status="ok"]').waitFor({ timeout: 60_000 });

    const files = page.getByTestId('workspace-files');
    const row = (p: string) => files.locator(`[data-testid="files-row"][data-path="${p}"]`);
    // Listed again once the cell ended: the folder and the link (no way to open it).
    await row('results').waitFor({ timeout: 30_000 });
    expect(await row('leak').getAttribute('data-kind')).toBe('link');
    expect(await row('leak').getByTestId('files-open').count()).toBe(0);

    await row('results').getByTestId('files-open').click();
    await page.locator('[data-testid="workspace-files"][data-folder="results"]').waitFor();
    await row('results/counts.csv').getByTestId('files-open').click();
    const text = files.getByTestId('files-preview-text');
    await text.waitFor();
    expect(await text.textContent()).toBe('residue,count\nA,10\nC,6\n');

    // Attach: a chip in the composer names the workspace path.
    await row('results/counts.csv').getByTestId('files-attach').click();
    await page.locator('[data-testid="attachment-chip"][data-path="results/counts.csv"]').waitFor();

    // Save as artifact: version 1, made by the user, in the ledger's artifact index.
    await row('results/counts.csv').getByTestId('files-save-artifact').click();
    await files.getByTestId('files-saved').waitFor();
    expect(await files.getByTestId('files-saved').textContent()).toBe('Saved results/counts.csv as artifact version 1.');
    const saved = shell.core.provenance.artifacts.list(session.id).find((a) => a.path === 'results/counts.csv');
    expect(saved?.latest.provenance.producer).toEqual({ kind: 'user' });
    await page.evaluate('document.fonts.ready.then(() => true)');
    await saveShot(page, 'notebook-workspace-files-en.png', { fullPage: true });

    // Sent: the model's request names the attached workspace file.
    const box = page.getByTestId('composer-input');
    await box.fill('Summarize the counts.');
    await box.press('Enter');
    await page.getByTestId('answer-card').waitFor({ timeout: 60_000 });
    expect(JSON.stringify(model.requests[0]?.body)).toContain('Summarize the counts.\\n\\nAttached: results/counts.csv');
    expect(await page.getByTestId('attachment-chip').count()).toBe(0);
    expect(shell.errors).toEqual([]);
  }, 180_000);
});
