import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { saveShot } from '../support/e2e/app';
import { ANSWER, QUESTION, researchScript } from '../support/e2e/research';
import { e2eSuite, scriptedModelEnv } from '../support/e2e/suite';

/**
 * The workbench against the real core (engine, ledger, sandboxed Python kernel) and a
 * scripted model speaking the OpenAI wire on 127.0.0.1.
 */
describe('workbench: a research conversation', () => {
  const e2e = e2eSuite();

  const env = (baseUrl: string): NodeJS.ProcessEnv =>
    // If a UniProt connector is wired, it fails fast on a closed loopback port.
    scriptedModelEnv(baseUrl, 'sk-e2e-never-shown-7788', { OPENAI4S_UNIPROT_BASE_URL: 'http://127.0.0.1:9' });

  const shot = (page: Page, name: string) => saveShot(page, name);

  async function send(page: Page, text: string) {
    const box = page.getByTestId('composer-input');
    await box.fill(text);
    await box.press('Enter');
  }

  it('renders reasoning, a tool call, a Python cell with its figure and the cited answer; reload restores it', async () => {
    const model = await e2e.startModel(researchScript());
    const shell = await e2e.openShell({
      locale: 'en-US',
      env: env(model.baseUrl),
      viewport: { width: 1440, height: 1000 },
    });
    const { page } = shell;
    await shell.open();
    await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();

    // Shift+Enter is a new line, Enter sends (and creates the session).
    const box = page.getByTestId('composer-input');
    await box.fill('first line');
    await box.press('Shift+Enter');
    expect(await box.inputValue()).toBe('first line\n');
    await send(page, QUESTION);

    await page.getByTestId('user-message').filter({ hasText: QUESTION }).waitFor();
    const answer = page.getByTestId('answer-card');
    await answer.waitFor({ timeout: 90_000 });
    await page.locator('[data-testid="run-footer"][data-status="completed"]').waitFor();

    // Every part of the run.
    expect(await page.getByTestId('reasoning').count()).toBe(1);
    expect(await page.getByTestId('reasoning').textContent()).toContain(
      'plot the two chain lengths',
    );
    const tool = page.getByTestId('tool-card').first();
    expect(await tool.getAttribute('data-tool')).toBe('science_search');
    expect(['output-available', 'output-error']).toContain(await tool.getAttribute('data-state'));
    const cell = page.getByTestId('cell-card').first();
    expect(await cell.getAttribute('data-status')).toBe('ok');
    expect(await cell.getByTestId('cell-code').textContent()).toContain(
      "ax.set_title('Human insulin chains')",
    );
    expect(await cell.getByTestId('cell-output').textContent()).toContain('total residues: 51');
    const figure = cell.getByTestId('cell-figure');
    expect(await figure.count()).toBe(1);
    expect(await figure.getAttribute('data-path')).toMatch(/\.png$/);

    // The cited answer: markdown table and math, claims with basis badges, evidence, sections.
    // (The markdown renderer is a lazily loaded chunk: wait until it has rendered the summary.)
    await answer.locator('[data-markdown="rendered"]').first().waitFor();
    expect(await answer.locator('table td').allTextContents()).toEqual(['A', '21', 'B', '30']);
    expect(await answer.locator('.katex').count()).toBeGreaterThan(0);
    const claims = answer.getByTestId('claim');
    expect(await claims.count()).toBe(ANSWER.claims.length);
    expect(await claims.nth(0).getAttribute('data-basis')).toBe('computed');
    expect(await claims.nth(0).getByTestId('basis-badge').textContent()).toBe('computed');
    expect(await claims.nth(1).getByTestId('basis-badge').textContent()).toBe('generated');
    expect(await answer.getByTestId('limitations').textContent()).toContain(ANSWER.limitations[0]);
    expect(await answer.getByTestId('next-steps').textContent()).toContain(ANSWER.next_steps[0]);
    expect(await answer.getByTestId('suggested-question').allTextContents()).toEqual(
      ANSWER.suggested_questions,
    );
    const footer = await page.getByTestId('run-footer').textContent();
    expect(footer).toMatch(/Completed/);
    expect(footer).toMatch(/openai · gpt-4o-mini/);
    expect(footer).toMatch(/\d+ in · \d+ out/);

    // The Notebook tab lists the cell with its kernel generation.
    expect(await page.getByTestId('notebook').getByTestId('cell-card').count()).toBe(1);
    expect(await page.getByTestId('generation-marker').count()).toBe(1);

    // A clicked evidence id opens the Evidence tab on that id.
    // The chip shows the record's label once the evidence is loaded; its id is an attribute.
    const cited = (await claims.nth(0).getByTestId('evidence-link').getAttribute('data-evidence-id'))!;
    expect(cited).toMatch(/^ev_[a-z2-7]{16}$/);
    await claims.nth(0).getByTestId('evidence-link').click();
    await page.locator(`[data-testid="evidence-item"][data-evidence-id="${cited}"]`).waitFor();

    // The session is in the sidebar, titled by the question, not running.
    const row = page.getByTestId('session-row').first();
    expect(await row.textContent()).toContain('Look up human insulin');
    await page.getByTestId('badge-running').waitFor({ state: 'detached' });

    await page.getByRole('tab', { name: 'Notebook' }).click();
    await page.getByTestId('conversation').evaluate((el) => (el.scrollTop = 0));
    await shot(page, 'workbench-conversation-en.png');
    await page.getByTestId('conversation').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await shot(page, 'workbench-answer-en.png');

    // Reload: the same view, folded from the ledger.
    // textContent, not innerText: messages are content-visibility:auto, so innerText leaves out
    // whichever messages are scrolled off screen, and the reload may open at another position.
    const before = await page.getByTestId('conversation').textContent();
    await page.reload();
    await page.getByTestId('session-row').first().click();
    await page.getByTestId('answer-card').waitFor();
    // The markdown renderer is loaded lazily: compare once every block is rendered again.
    await page.locator('[data-markdown="rendered"]').first().waitFor();
    await expect.poll(() => page.locator('[data-markdown="loading"]').count()).toBe(0);
    expect(await page.getByTestId('conversation').textContent()).toBe(before);

    // The same conversation in Chinese.
    await page.getByRole('button', { name: '中文' }).click();
    await page.getByRole('tab', { name: '笔记本' }).waitFor();
    expect(await page.getByTestId('basis-badge').first().textContent()).toBe('计算');
    await page.getByTestId('conversation').evaluate((el) => (el.scrollTop = el.scrollHeight));
    await shot(page, 'workbench-answer-zh.png');
    await page.getByRole('button', { name: 'English' }).click();

    expect(model.requests.length).toBe(3);
    const html = await page.content();
    expect(html).not.toContain('sk-e2e-never-shown-7788');
    expect(shell.served.blocked).toEqual([]);
    expect(shell.errors).toEqual([]);
  }, 150_000);

  it('shows a tool call the headless approval policy denied as denied', async () => {
    const model = await e2e.startModel([
      {
        reply: [
          {
            toolCall: {
              name: 'web_fetch',
              arguments: { url: 'https://www.uniprot.org/uniprotkb/P01308' },
            },
          },
        ],
      },
      { reply: [{ toolCall: { name: 'finalize_response', arguments: ANSWER } }] },
    ]);
    const shell = await e2e.openShell({ locale: 'en-US', env: env(model.baseUrl) });
    const { page } = shell;
    await shell.open();
    await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
    await send(page, 'Fetch the UniProt page of insulin.');
    await page.getByTestId('answer-card').waitFor({ timeout: 30_000 });
    const tool = page.getByTestId('tool-card').filter({ hasText: 'web_fetch' });
    expect(await tool.getAttribute('data-state')).toBe('output-denied');
    // Who denied it (the headless policy: no dialog in this shell) and how to change that.
    expect(await tool.getByTestId('tool-denied').getAttribute('data-denied-by')).toBe('headless');
    expect(await tool.getByTestId('tool-denied').textContent()).toBe(
      'The headless policy denied this call (no one was there to approve it), so it did not run. Run it in the app, or set OPENAI4S_UNATTENDED_APPROVAL=allow for headless runs.',
    );
    await shot(page, 'workbench-denied-en.png');
    expect(shell.errors).toEqual([]);
  }, 60_000);

  it('queues a message sent during a run, runs it next, and Stop (Esc) cancels the running one', async () => {
    const model = await e2e.startModel([
      {
        reply: [
          { text: 'Reading the question carefully.' },
          { delayMs: 2500 },
          { toolCall: { name: 'finalize_response', arguments: ANSWER } },
        ],
      },
      { hang: true },
    ]);
    const shell = await e2e.openShell({
      locale: 'zh-CN',
      env: env(model.baseUrl),
      viewport: { width: 1440, height: 900 },
    });
    const { page } = shell;
    await shell.open();
    await page.getByRole('heading', { name: '提出一个研究问题' }).waitFor();
    await send(page, '胰岛素由几条链组成？');
    await page.getByTestId('stop-button').waitFor();
    await page.getByTestId('badge-running').waitFor();

    // Sent while the first run is active: queued, shown as a queued bubble and badge.
    await send(page, '再画一张图。');
    const queued = page.getByTestId('queued-message');
    await queued.waitFor();
    expect(await queued.textContent()).toContain('再画一张图。');
    await page.getByTestId('badge-queued').waitFor();
    await shot(page, 'workbench-queued-zh.png');

    // The first run finishes; the queued one starts (its user turn enters the stream).
    await page.getByTestId('answer-card').waitFor({ timeout: 30_000 });
    await queued.waitFor({ state: 'detached' });
    await page.getByTestId('user-message').filter({ hasText: '再画一张图。' }).waitFor();
    await model.waitForRequestsEnded(1);
    await page.getByTestId('stop-button').waitFor();

    // Esc in the composer stops the running (hanging) run.
    await page.getByTestId('composer-input').press('Escape');
    await page
      .locator('[data-testid="run-footer"][data-status="cancelled"]')
      .waitFor({ timeout: 20_000 });
    await page.getByTestId('stop-button').waitFor({ state: 'detached' });
    expect(
      await page.locator('[data-testid="run-footer"][data-status="cancelled"]').textContent(),
    ).toContain('已停止');
    await page.getByTestId('badge-running').waitFor({ state: 'detached' });
    await shot(page, 'workbench-stopped-zh.png');
    expect(shell.errors).toEqual([]);
  }, 90_000);
});
