import type { Locator, Page } from 'playwright-core';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeServices, type FakeServices } from '../support/e2e/fakeServices';
import { seedLongSession } from '../support/e2e/longSession';
import { shootMatrix } from '../support/e2e/screens';
import { e2eSuite, scriptedModelEnv } from '../support/e2e/suite';

/** Pixels between the scroller's bottom and the end of its content (0: at the end). */
const distanceToEnd = (scroller: Locator) => scroller.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));

/** True when the element's box lies inside the scroller's visible box. */
async function inView(scroller: Locator, target: Locator): Promise<boolean> {
  const [outer, inner] = await Promise.all([scroller.boundingBox(), target.boundingBox()]);
  return !!outer && !!inner && inner.y >= outer.y - 1 && inner.y + Math.min(inner.height, 40) <= outer.y + outer.height + 1;
}

const focused = (page: Page) =>
  page.evaluate("(() => { const a = document.activeElement; return a ? a.getAttribute('data-testid') || a.id || a.tagName : null; })()") as Promise<string | null>;

/**
 * Issue 24 in the browser: the workbench at 1024×700 (both side panels folded, a wide
 * table scrolling sideways), a 200-message session that opens at its end, and the
 * everyday path by keyboard alone.
 */
describe('workbench: layout, reading and keyboard', () => {
  const e2e = e2eSuite();
  let services: FakeServices | null = null;
  afterEach(async () => {
    await services?.close();
    services = null;
  });

  it('at 1024×700 folds both panels, opens a 200-message session at its end, scrolls a wide table sideways, and brings a message sent while scrolled up into view', async () => {
    const model = await e2e.startModel([{ hang: true }]);
    const shell = await e2e.openShell({ locale: 'en-US', viewport: { width: 1024, height: 700 }, env: scriptedModelEnv(model.baseUrl, 'sk-e2e-layout-1') });
    const { page, core } = shell;
    const sessionId = seedLongSession(core.ledger, 100);
    await shell.open();
    await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();

    // Both panels folded on their own below their widths; the page never scrolls sideways.
    expect(await page.locator('aside.sidebar').count()).toBe(0);
    expect(await page.getByTestId('toggle-sidebar').getAttribute('aria-expanded')).toBe('false');
    await page.getByTestId('toggle-sidebar').click();
    await page.locator(`[data-testid="session-row"][data-session-id="${sessionId}"]`).click();
    await page.getByTestId('toggle-sidebar').click();
    await page.locator('aside.sidebar').waitFor({ state: 'detached' });
    expect(await page.getByTestId('right-panel').count()).toBe(0);
    await page.getByTestId('show-panel').waitFor();

    // 200 messages, opened at the end (also once lazily rendered messages took their real height).
    const scroller = page.getByTestId('conversation');
    await expect.poll(() => page.getByTestId('user-message').count()).toBe(100);
    expect(await page.getByTestId('assistant-message').count()).toBe(100);
    await expect.poll(() => distanceToEnd(scroller)).toBeLessThan(2);
    await page.locator('[data-markdown="rendered"]').last().waitFor();
    await expect.poll(() => distanceToEnd(scroller)).toBeLessThan(2);
    expect(await inView(scroller, page.getByTestId('assistant-message').last())).toBe(true);
    expect(await page.getByTestId('jump-latest').count()).toBe(0);
    expect(await page.evaluate('document.documentElement.scrollWidth')).toBeLessThanOrEqual(1024);

    // The wide table scrolls inside its own box; its cells keep words whole (one line each).
    const table = page.locator('.md-table').last();
    const sizes = await table.evaluate((el) => ({ scroll: el.scrollWidth, client: el.clientWidth }));
    expect(sizes.scroll).toBeGreaterThan(sizes.client);
    const cellHeights = await table.locator('td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().height));
    expect(Math.max(...cellHeights)).toBeLessThan(40);
    await shootMatrix(page, 'long-session-end');

    // Scrolled up: "Jump to latest" appears and goes back to the end.
    await scroller.evaluate((el) => (el.scrollTop = 0));
    const jump = page.getByTestId('jump-latest');
    await jump.waitFor();
    await shootMatrix(page, 'scrolled-up');
    await jump.click();
    await expect.poll(() => distanceToEnd(scroller)).toBeLessThan(2);
    await jump.waitFor({ state: 'detached' });

    // The composer grows with its text, within a third of the window.
    const box = page.getByTestId('composer-input');
    const empty = (await box.boundingBox())!.height;
    await box.fill(Array.from({ length: 6 }, (_, i) => `line ${i + 1} of a longer question`).join('\n'));
    const grown = (await box.boundingBox())!.height;
    expect(grown).toBeGreaterThan(empty + 40);
    expect(grown).toBeLessThanOrEqual(700 / 3 + 1);

    // Sending while scrolled up brings the new message into view.
    await scroller.evaluate((el) => (el.scrollTop = 0));
    await jump.waitFor();
    await box.fill('And the mouse insulin?');
    await box.press('Enter');
    const sent = page.getByTestId('user-message').filter({ hasText: 'And the mouse insulin?' });
    await sent.waitFor();
    // (The model holds its answer, so the message is looked at before an answer pushes it up.)
    await expect.poll(() => inView(scroller, sent)).toBe(true);
    await page.getByTestId('run-now').waitFor();
    await page.keyboard.press('Control+Period');
    await page.locator('[data-testid="run-footer"][data-status="cancelled"]').waitFor({ timeout: 30_000 });
    await expect.poll(() => distanceToEnd(scroller)).toBeLessThan(2);
    // The box shrank back once sent.
    expect((await box.boundingBox())!.height).toBeLessThanOrEqual(empty + 1);
    expect(shell.errors).toEqual([]);
  }, 180_000);

  it('by keyboard alone: new session, send, stop, open Evidence, move between tabs', async () => {
    services = await startFakeServices();
    const model = await e2e.startModel([
      { reply: [{ toolCall: { name: 'science_search', arguments: { database: 'uniprot', operation: 'fasta', query: 'P01308' } } }] },
      { hang: true },
    ]);
    const shell = await e2e.openShell({
      locale: 'en-US',
      viewport: { width: 1440, height: 900 },
      env: scriptedModelEnv(model.baseUrl, 'sk-e2e-keys-1', { OPENAI4S_UNIPROT_BASE_URL: services.baseUrl }),
    });
    const { page } = shell;
    await shell.open();
    await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
    await shootMatrix(page, 'welcome');

    // The shortcuts list: Ctrl+/ opens it (also from the message box), Esc closes it.
    await page.keyboard.press('Control+Slash');
    await page.getByTestId('shortcuts-help').waitFor();
    await page.keyboard.press('Escape');
    await page.getByTestId('shortcuts-help').waitFor({ state: 'detached' });

    // New session (Ctrl+Shift+O): the message box has the focus; type and send with Enter.
    await page.keyboard.press('Control+Shift+O');
    await page.getByTestId('session-title').waitFor();
    await expect.poll(() => focused(page)).toBe('composer-input');
    await page.keyboard.type('Fetch the insulin precursor sequence.');
    await page.keyboard.press('Enter');
    await page.getByTestId('user-message').filter({ hasText: 'Fetch the insulin precursor sequence.' }).waitFor();

    // The search left evidence; the model then hangs: Ctrl+. stops the run.
    await page.locator('[data-testid="tool-card"][data-tool="science_search"][data-state="output-available"]').waitFor({ timeout: 60_000 });
    await model.waitForRequestsEnded(1);
    await page.getByTestId('stop-button').waitFor();
    await page.keyboard.press('Control+Period');
    await page.locator('[data-testid="run-footer"][data-status="cancelled"]').waitFor({ timeout: 30_000 });

    // Alt+2 opens the Evidence tab and puts the focus on it; arrows move between tabs.
    await page.keyboard.press('Alt+Digit2');
    await expect.poll(() => focused(page)).toBe('tab-evidence');
    expect(await page.getByRole('tab', { name: 'Evidence' }).getAttribute('aria-selected')).toBe('true');
    // The focus ring is visible.
    const outline = await page.evaluate('getComputedStyle(document.activeElement).outlineStyle');
    expect(outline).not.toBe('none');
    // Tab on to the tab's "All results" and open it: the search's record is there.
    const all = page.getByRole('tab', { name: /^All results · 1$/ });
    await all.waitFor({ timeout: 30_000 });
    for (let i = 0; i < 8 && !(await all.evaluate((el) => el === el.ownerDocument.activeElement)); i++) await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByTestId('evidence-item').first().waitFor();
    await shootMatrix(page, 'evidence', { panel: true });
    await page.keyboard.press('Alt+Digit2');
    await expect.poll(() => focused(page)).toBe('tab-evidence');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => focused(page)).toBe('tab-artifacts');
    expect(await page.getByRole('tab', { name: 'Artifacts' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => focused(page)).toBe('tab-evidence');

    // Ctrl+B and Ctrl+Shift+B fold the sidebar and the side panel, and bring them back.
    await page.keyboard.press('Control+B');
    await page.locator('aside.sidebar').waitFor({ state: 'detached' });
    await page.keyboard.press('Control+Shift+B');
    await page.getByTestId('right-panel').waitFor({ state: 'detached' });
    await page.keyboard.press('Control+B');
    await page.keyboard.press('Control+Shift+B');
    await page.getByTestId('right-panel').waitFor();
    // Shift+Esc puts the focus back in the message box.
    await page.keyboard.press('Shift+Escape');
    await expect.poll(() => focused(page)).toBe('composer-input');
    expect(shell.errors).toEqual([]);
  }, 150_000);
});
