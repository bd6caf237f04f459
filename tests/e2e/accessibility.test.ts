import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { ApprovalPort } from '../../src-main/core/capabilities/permissions/approvals';
import { describeViolations, seriousViolations } from '../support/e2e/axe';
import { ANSWER } from '../support/e2e/research';
import { setLanguage, shootMatrix } from '../support/e2e/screens';
import { askQuestion, e2eSuite, scriptedModelEnv } from '../support/e2e/suite';

/** A dialog nobody answers: the approval waits for the card in the window. */
const lostDialog: ApprovalPort = { kind: 'dialog', ask: (_q, signal) => new Promise((resolve) => signal.addEventListener('abort', () => resolve('deny'))) };

/**
 * Issue 24: axe-core over the main screens, light and dark, English and Chinese: no
 * serious or critical violation (contrast of text and syntax colours, names of controls,
 * labels, roles, landmarks).
 */
describe('workbench: contrast and labels (axe-core)', () => {
  const e2e = e2eSuite();

  async function check(page: Page, screen: string, found: string[]) {
    for (const theme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: theme });
      for (const lang of ['en', 'zh'] as const) {
        await setLanguage(page, lang);
        const violations = await seriousViolations(page);
        if (violations.length) found.push(`${screen} (${theme}, ${lang}):\n${describeViolations(violations)}`);
      }
    }
    await setLanguage(page, 'en');
  }

  it('finds no serious violation on the start page, a conversation with an approval, a cell and a cited answer, the side panel tabs, Settings, Skills and System', async () => {
    const cell = ['```python', "print('insulin has', 21 + 30, 'residues')", '```'].join('\n');
    // A second fence is not run (only the first is a cell): it stays highlighted Markdown, so the syntax colours are checked too.
    const shown = ['```python', 'def chains(total=51):', "    # the A chain has 21 residues", "    return {'A': 21, 'B': total - 21, 'ratio': 0.7}", '```'].join('\n');
    const model = await e2e.startModel([
      { reply: [{ reasoning: 'Count the residues, then look for a source.' }, { text: `Counting.\n\n${cell}\n\nLater I could split it like this:\n\n${shown}\n` }] },
      { reply: [{ toolCall: { name: 'web_fetch', arguments: { url: 'https://www.uniprot.org/uniprotkb/P01308', reason: 'Read the record.' } } }] },
      { reply: [{ toolCall: { name: 'finalize_response', arguments: ANSWER } }] },
    ]);
    const shell = await e2e.openShell({ locale: 'en-US', viewport: { width: 1440, height: 900 }, approvals: lostDialog, env: scriptedModelEnv(model.baseUrl, 'sk-e2e-axe-1') });
    const { page } = shell;
    await shell.open();
    const found: string[] = [];
    await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
    await check(page, 'start page', found);

    await askQuestion(page, 'How many residues has human insulin?');
    const card = page.getByTestId('approval-card');
    await card.waitFor({ timeout: 90_000 });
    await page.locator('[data-testid="cell-card"][data-status="ok"]').first().waitFor();
    await page.locator('[data-markdown="rendered"]').first().waitFor();
    expect(await page.locator('.md pre .hljs-keyword').count()).toBeGreaterThan(0);
    await check(page, 'conversation with a pending approval', found);
    // Denied from the card: the run goes on to its answer.
    await card.getByRole('button', { name: 'Deny' }).click();
    await page.getByTestId('answer-card').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid="run-footer"][data-status="completed"]').waitFor();
    expect(await page.locator('[data-testid="tool-card"][data-tool="web_fetch"]').getByTestId('tool-denied').getAttribute('data-denied-by')).toBe('user');
    await shootMatrix(page, 'answer');
    await check(page, 'conversation with a cited answer', found);
    // Code and ids are never under 12 px; no icon or mark is a glyph that needs an emoji or symbol font.
    const small = await page.evaluate(`[...document.querySelectorAll('code, pre, kbd, .mono, [data-evidence-id], .pill, .section-label, .small')]
      .filter((el) => el.getClientRects().length && parseFloat(getComputedStyle(el).fontSize) < 12)
      .map((el) => el.className + ': ' + getComputedStyle(el).fontSize)`);
    expect(small).toEqual([]);
    const glyphs = await page.evaluate(`[...document.body.innerText.matchAll(/[\\u2600-\\u27BF\\u25A0-\\u25FF\\u2B00-\\u2BFF\\uFF0B]|\\p{Extended_Pictographic}/gu)].map((m) => m[0])`);
    expect(glyphs).toEqual([]);

    for (const tab of ['Evidence', 'Artifacts', 'Plan', 'Memory', 'Jobs', 'Notebook']) {
      await page.getByRole('tab', { name: tab, exact: true }).click();
      await check(page, `side panel: ${tab}`, found);
    }
    for (const view of ['Settings', 'Skills', 'System']) {
      await page.getByRole('button', { name: view, exact: true }).click();
      await page.locator('main h1').first().waitFor();
      await check(page, view, found);
    }
    expect(found, found.join('\n\n')).toEqual([]);
    expect(shell.errors).toEqual([]);
  }, 240_000);
});
