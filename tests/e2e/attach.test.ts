import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openShell, saveShot, type Shell } from '../support/e2e/app';
import { ANSWER } from '../support/e2e/research';
import { startScriptedModel, type ScriptedModel } from '../support/scriptedModel';

/**
 * Attaching files in the composer: from the file picker and by drag-and-drop, written
 * into the session's workspace by the real core, shown as chips, and named in the
 * message the model receives.
 */
describe('composer: attach files into the workspace', () => {
  let browser: Browser;
  let shell: Shell;
  let model: ScriptedModel;

  beforeAll(async () => {
    browser = await launchChromium();
    model = await startScriptedModel([
      { reply: [{ toolCall: { name: 'finalize_response', arguments: ANSWER } }] },
    ]);
    shell = await openShell(browser, {
      locale: 'en-US',
      env: {
        OPENAI4S_PROVIDER: 'openai',
        OPENAI4S_OPENAI_BASE_URL: model.baseUrl,
        OPENAI4S_OPENAI_API_KEY: 'sk-e2e-attach',
        OPENAI4S_OPENAI_MODEL: 'gpt-4o-mini',
        OPENAI4S_KERNEL_PREWARM: '0',
      },
    });
  });
  afterAll(async () => {
    await shell?.close();
    await model?.close();
    await browser?.close();
  });

  it('attaches from the picker and by drop, then sends the workspace paths with the message', async () => {
    const { page } = shell;
    await shell.open();
    await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
    const csv = 'gene,residues\nINS,110\n';

    // The picker (the paper-clip button opens this input). Attaching opens a session.
    await page.getByTestId('attach-input').setInputFiles({
      name: 'data.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await page
      .locator('[data-testid="attachment-chip"][data-status="ready"][data-path="uploads/data.csv"]')
      .waitFor();
    const sessionId = (await page.getByTestId('session-row').first().getAttribute('data-session-id'))!;

    // Drag-and-drop onto the composer.
    // (A string, because this runs in the page, where DataTransfer and File exist.)
    const transfer = await page.evaluateHandle(`(() => {
      const dt = new DataTransfer();
      dt.items.add(new File(['insulin notes\\n'], 'notes.txt', { type: 'text/plain' }));
      return dt;
    })()`);
    const composer = page.getByTestId('composer');
    await composer.dispatchEvent('dragover', { dataTransfer: transfer });
    await composer.locator('.drop-hint').waitFor();
    await composer.dispatchEvent('drop', { dataTransfer: transfer });
    await page
      .locator('[data-testid="attachment-chip"][data-status="ready"][data-path="uploads/notes.txt"]')
      .waitFor();
    expect(await composer.locator('.drop-hint').count()).toBe(0);

    // The bytes are in the session's workspace.
    const workspace = shell.core.kernels.workspaceFor(sessionId);
    expect(readFileSync(path.join(workspace, 'uploads', 'data.csv'), 'utf8')).toBe(csv);
    expect(readFileSync(path.join(workspace, 'uploads', 'notes.txt'), 'utf8')).toBe('insulin notes\n');

    const box = page.getByTestId('composer-input');
    await box.fill('Summarize the attached table.');
    await page.evaluate('document.fonts.ready.then(() => true)');
    await saveShot(page, 'composer-attachments-en.png');
    await box.press('Enter');

    const sent = 'Summarize the attached table.\n\nAttached: uploads/data.csv, uploads/notes.txt';
    await page.getByTestId('user-message').filter({ hasText: 'Attached: uploads/data.csv' }).waitFor();
    expect(await page.getByTestId('attachment-chip').count()).toBe(0);
    await page.getByTestId('answer-card').waitFor({ timeout: 30_000 });
    expect(JSON.stringify(model.requests[0]?.body)).toContain(JSON.stringify(sent).slice(1, -1));
    expect(shell.errors).toEqual([]);
  });
});
