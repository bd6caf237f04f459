import type { Locator } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import type { Router } from '../../src-main/core/api/router';
import { seedLongSession } from '../support/e2e/longSession';
import { e2eSuite, scriptedModelEnv } from '../support/e2e/suite';

/** Pixels between the scroller's bottom and the end of its content (0: at the end). */
const distanceToEnd = (scroller: Locator) => scroller.evaluate((el) => Math.round(el.scrollHeight - el.scrollTop - el.clientHeight));

/** Holds a session's earlier history (its stored fold, session.folded, and its pages, session.earlier) until released. */
function holdEarlierPages(router: Router): () => void {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const handle = router.handle;
  router.handle = async (route, input, caller) => {
    if (route === 'session.earlier' || route === 'session.folded') await gate;
    return handle(route, input, caller);
  };
  return () => {
    router.handle = handle;
    release();
  };
}

/** The message in the middle of the scroller's view, and where its top is on screen. */
const messageInView = (scroller: Locator) =>
  scroller.evaluate((el) => {
    const box = el.getBoundingClientRect();
    const hit = el.ownerDocument.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2)?.closest('[data-message-id]');
    return hit ? { id: hit.getAttribute('data-message-id')!, top: Math.round(hit.getBoundingClientRect().top) } : null;
  });

/**
 * Issue 24 with the long-sessions work: a session longer than its opening tail opens at
 * its end and gets its earlier messages put in front afterwards. A reader at the end stays
 * there; a reader who scrolled up keeps reading the same message at the same place.
 */
describe('workbench: earlier messages of a session opened at its end', () => {
  const e2e = e2eSuite();

  it('keeps a following view at the end, and a scrolled-up reader in place, when the earlier messages arrive', async () => {
    const model = await e2e.startModel([]);
    const shell = await e2e.openShell({ locale: 'en-US', viewport: { width: 1440, height: 900 }, env: scriptedModelEnv(model.baseUrl, 'sk-e2e-earlier-1') });
    const { page, core } = shell;
    // 400 question-and-answer runs: more chunks than a session opens with (OPEN_TAIL_CHUNKS).
    const first = seedLongSession(core.ledger, 400, 'Followed to the end');
    const second = seedLongSession(core.ledger, 400, 'Read from the middle');
    await shell.open();
    const scroller = page.getByTestId('conversation');
    const loadingEarlier = page.getByTestId('loading-earlier');
    const userMessages = page.getByTestId('user-message');

    // At the end when the earlier messages come: still at the end, with the whole history.
    let release = holdEarlierPages(shell.router);
    await page.locator(`[data-testid="session-row"][data-session-id="${first}"]`).click();
    await loadingEarlier.waitFor();
    const tail = await userMessages.count();
    expect(tail).toBeLessThan(400);
    await expect.poll(() => distanceToEnd(scroller)).toBeLessThan(2);
    release();
    await loadingEarlier.waitFor({ state: 'detached' });
    await expect.poll(() => userMessages.count()).toBe(400);
    await expect.poll(() => distanceToEnd(scroller)).toBeLessThan(2);
    expect(await page.getByTestId('jump-latest').count()).toBe(0);
    // Off-screen messages skip rendering (content-visibility), so their text is read as textContent.
    expect(await scroller.evaluate((el) => el.textContent)).toContain('Question 1: what is residue 1');

    // Scrolled up when they come: the message being read stays where it was on screen.
    release = holdEarlierPages(shell.router);
    await page.locator(`[data-testid="session-row"][data-session-id="${second}"]`).click();
    await loadingEarlier.waitFor();
    await expect.poll(() => distanceToEnd(scroller)).toBeLessThan(2);
    await scroller.evaluate((el) => (el.scrollTop -= 1500));
    await page.getByTestId('jump-latest').waitFor();
    const before = (await messageInView(scroller))!;
    expect(before).not.toBeNull();
    release();
    await loadingEarlier.waitFor({ state: 'detached' });
    await expect.poll(() => userMessages.count()).toBe(400);
    const after = await page.locator(`[data-message-id="${before.id}"]`).evaluate((el) => Math.round(el.getBoundingClientRect().top));
    expect(Math.abs(after - before.top)).toBeLessThanOrEqual(2);
    expect(await distanceToEnd(scroller)).toBeGreaterThan(1000);
    await page.getByTestId('jump-latest').click();
    await expect.poll(() => distanceToEnd(scroller)).toBeLessThan(2);
    expect(shell.errors).toEqual([]);
  }, 180_000);
});
