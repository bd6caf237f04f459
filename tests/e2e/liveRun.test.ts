import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { ApprovalPort } from '../../src-main/core/capabilities/permissions/approvals';
import { startFakeServices, type FakeServices } from '../support/e2e/fakeServices';
import { ANSWER } from '../support/e2e/research';
import { shootMatrix } from '../support/e2e/screens';
import { askQuestion, e2eSuite, scriptedModelEnv } from '../support/e2e/suite';

/**
 * Issue 24 in the browser, against the real core and a scripted model: while a run works,
 * the conversation says what it is doing now with its clocks (a search held open by a
 * loopback UniProt, a cell waiting for a file the test writes, an approval nobody answers
 * in the "native dialog"), and the approval is answered from its card in the window.
 * Nothing here waits on a timer: every state is held until the test lets it go.
 */
const GO_FILE = 'go-on.txt';
const CELL = ['```python', 'import os, time', `while not os.path.exists(${JSON.stringify(GO_FILE)}):`, '    time.sleep(0.05)', 'print("counted 51 residues")', '```'].join('\n');

/** A native dialog that is never answered (lost behind a window): records being closed. */
function lostDialog() {
  const asked: string[] = [];
  const closed: string[] = [];
  const port: ApprovalPort = {
    kind: 'dialog',
    ask: (q, signal) =>
      new Promise((resolve) => {
        asked.push(q.requestId);
        signal.addEventListener('abort', () => {
          closed.push(q.requestId);
          resolve('deny');
        });
      }),
  };
  return { port, asked, closed };
}

describe('workbench: knowing what the agent is doing, and approvals in the window', () => {
  const e2e = e2eSuite();
  let services: FakeServices | null = null;
  afterEach(async () => {
    await services?.close();
    services = null;
  });

  it('shows the step running now with its clocks, the asked query on the tool card, a ticking cell, and takes the approval from its card', async () => {
    services = await startFakeServices();
    const model = await e2e.startModel([
      {
        reply: [
          { text: 'I will search UniProt first.' },
          { toolCall: { name: 'science_search', arguments: { database: 'uniprot', query: 'insulin human', limit: 3 } } },
        ],
      },
      { reply: [{ text: `Counting the residues.\n\n${CELL}\n` }] },
      { reply: [{ toolCall: { name: 'web_search', arguments: { query: 'insulin structure 4INS', reason: 'Find the structure paper to cite.' } } }] },
      { reply: [{ toolCall: { name: 'finalize_response', arguments: ANSWER } }] },
    ]);
    const dialog = lostDialog();
    const shell = await e2e.openShell({
      locale: 'en-US',
      viewport: { width: 1440, height: 900 },
      approvals: dialog.port,
      env: scriptedModelEnv(model.baseUrl, 'sk-e2e-live-never-shown-5151', {
        OPENAI4S_UNIPROT_BASE_URL: services.baseUrl,
        OPENAI4S_SEARXNG_URL: `${services.baseUrl}/`,
      }),
    });
    const { page, core } = shell;
    await shell.open();
    await askQuestion(page, 'How many residues has human insulin, and which structure shows it?');

    // 1. The search is in flight: the step line says so in words, with the step's and the run's clocks.
    await services.uniprotAsked;
    const now = page.getByTestId('run-now');
    await now.getByTestId('run-now-text').filter({ hasText: 'Searching UniProt for "insulin human"' }).waitFor({ timeout: 60_000 });
    expect(await now.getAttribute('data-step')).toBe('searchFor');
    await now.getByTestId('run-now-step-time').filter({ hasText: /^\d+ s$/ }).waitFor();
    await now.getByTestId('run-now-total').filter({ hasText: /^run \d+ s$/ }).waitFor();
    // The tool card's collapsed line says what was asked, and its clock runs.
    const search = page.locator('[data-testid="tool-card"][data-tool="science_search"]');
    expect(await search.getByTestId('tool-asked').textContent()).toBe('uniprot · “insulin human”');
    await search.getByTestId('tool-elapsed').filter({ hasText: /^\d+ s$/ }).waitFor();
    // The same step is in the run's live checklist.
    const steps = page.getByTestId('assistant-message').getByTestId('thinking-step');
    await steps.filter({ hasText: 'Searching UniProt for "insulin human"' }).and(page.locator('[data-status="in_progress"]')).waitFor();
    await shootMatrix(page, 'live-search');

    // 2. The search answers; a cell runs (it waits for a file): the line names it and the cell's clock ticks.
    services.releaseUniprot();
    await search.getByTestId('tool-duration').filter({ hasText: /^took \d+(\.\d)? s$/ }).waitFor({ timeout: 30_000 });
    await now.getByTestId('run-now-text').filter({ hasText: 'Running Python code' }).waitFor({ timeout: 90_000 });
    const message = page.getByTestId('assistant-message');
    const clock = message.locator('[data-testid="cell-card"][data-status="running"]').getByTestId('cell-running-for');
    const first = await clock.textContent();
    expect(first).toMatch(/^running \d+ s$/);
    await expect.poll(() => clock.textContent(), { timeout: 10_000 }).not.toBe(first);
    // The fence that became the cell is shown once: as the cell card, not also as a Markdown block.
    await message.locator('[data-markdown="rendered"]').first().waitFor();
    expect(await message.locator('.md pre').count()).toBe(0);
    expect(await message.getByTestId('cell-code').count()).toBe(1);
    await shootMatrix(page, 'live-cell');

    const [session] = core.ledger.sessions.list();
    fs.writeFileSync(path.join(core.kernels.workspaceFor(session!.id), GO_FILE), 'go');

    // 3. web_search asks for approval: the card is in the conversation, the line says the run waits.
    const card = page.getByTestId('approval-card');
    await card.waitFor({ timeout: 90_000 });
    await expect.poll(() => now.getByTestId('run-now-text').textContent()).toMatch(/^Waiting for your approval: web_search → http:\/\/127\.0\.0\.1:\d+$/);
    expect(await now.getAttribute('data-step')).toBe('approval');
    expect(await card.getByRole('button').allTextContents()).toEqual(['Allow once', 'Allow for this session', 'Always', 'Deny']);
    expect(await card.textContent()).toContain('Find the structure paper to cite.');
    expect(dialog.asked).toHaveLength(1);
    await shootMatrix(page, 'approval');

    // Answered in the window: the call runs, and the dialog asking the same question is closed.
    await card.getByRole('button', { name: 'Allow once' }).click();
    await card.waitFor({ state: 'detached' });
    const fetch = page.locator('[data-testid="tool-card"][data-tool="web_search"]');
    await fetch.and(page.locator('[data-state="output-available"]')).waitFor({ timeout: 30_000 });
    expect(dialog.closed).toEqual(dialog.asked);
    expect(services.searches).toEqual(['insulin structure 4INS']);
    expect(core.ledger.permissions.require(dialog.asked[0]!).status).toBe('allowed_once');
    // Its duration leaves out the wait for the answer, and says so on hover.
    expect(await fetch.getByTestId('tool-duration').getAttribute('title')).toMatch(/^\d+ s waiting for approval, not counted$/);
    expect(await fetch.getByTestId('tool-asked').textContent()).toBe('“insulin structure 4INS”');

    // 4. The answer: the line is gone, the checklist shows every step done.
    await page.locator('[data-testid="run-footer"][data-status="completed"]').waitFor({ timeout: 60_000 });
    await now.waitFor({ state: 'detached' });
    const statuses = await steps.evaluateAll((els) => els.map((e) => [e.textContent, e.getAttribute('data-status')]));
    expect(statuses.map(([, s]) => s)).not.toContain('in_progress');
    expect(statuses.map(([text]) => text).join(' | ')).toMatch(/Searching UniProt.*Python cell 1.*Searching the web.*Waiting for your approval/);
    expect(shell.errors).toEqual([]);
    expect(await page.content()).not.toContain('sk-e2e-live-never-shown-5151');
  }, 240_000);

  it('a denied approval says who denied it and how to change that, in the UI language', async () => {
    const model = await e2e.startModel([
      { reply: [{ toolCall: { name: 'web_search', arguments: { query: 'insulin', reason: 'Look it up.' } } }] },
      { reply: [{ toolCall: { name: 'finalize_response', arguments: ANSWER } }] },
    ]);
    // No dialog: the headless policy answers (deny).
    const shell = await e2e.openShell({ locale: 'zh-CN', env: scriptedModelEnv(model.baseUrl, 'sk-e2e-deny-1', { OPENAI4S_SEARXNG_URL: 'http://127.0.0.1:9/' }) });
    const { page } = shell;
    await shell.open();
    await page.getByRole('heading', { name: '提出一个研究问题' }).waitFor();
    const box = page.getByTestId('composer-input');
    await box.fill('查一下胰岛素。');
    await box.press('Enter');
    await page.getByTestId('answer-card').waitFor({ timeout: 60_000 });
    const denied = page.locator('[data-testid="tool-card"][data-tool="web_search"]').getByTestId('tool-denied');
    expect(await denied.getAttribute('data-denied-by')).toBe('headless');
    expect(await denied.textContent()).toContain('OPENAI4S_UNATTENDED_APPROVAL=allow');
    expect(await denied.textContent()).toContain('无界面运行策略');
    expect(shell.errors).toEqual([]);
  }, 90_000);
});
