import fs from 'node:fs';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchChromium, openShell, saveShot, type Shell } from '../support/e2e/app';

/**
 * Issue 25, working in the Notebook tab against the real core: the user writes a cell,
 * runs it, edits and runs it again (a new version; the first stays), interrupts a long
 * cell, restarts the kernel (a generation divider), a DataFrame value is a sortable table,
 * the variables view shows the DataFrame, a figure saves as PNG, SVG and PDF, and an R
 * data.frame is a sortable table too. Every run is recorded in the ledger as a version of its cell.
 */
describe('Working in the Notebook tab', () => {
  let browser: Browser;
  let shell: Shell;

  beforeAll(async () => {
    browser = await launchChromium();
    shell = await openShell(browser, { locale: 'en-US', viewport: { width: 1440, height: 1000 }, env: { OPENAI4S_KERNEL_PREWARM: '0' } });
  });
  afterAll(async () => {
    await shell?.close();
    await browser?.close();
  });

  it('write, run, edit and re-run, interrupt, restart; the variables view shows a DataFrame', async () => {
    const { page } = shell;
    const session = shell.core.ledger.createSession('Notebook');
    await shell.open();
    await page.getByTestId('session-row').first().click();
    await page.getByRole('tab', { name: 'Notebook' }).click();
    const notebook = page.getByTestId('user-notebook');
    await notebook.waitFor();

    // Write a new Python cell and run it.
    await notebook.getByTestId('notebook-add-python').click();
    const cell = notebook.getByTestId('user-cell').first();
    await cell.getByTestId('user-cell-input').fill('import pandas as pd\ncounts = {"A": 10, "C": 6, "G": 12}\nprint(sum(counts.values()))');
    await cell.getByTestId('user-cell-run').click();
    await notebook.locator('[data-testid="user-cell"][data-version="1"][data-status="ok"]').waitFor({ timeout: 60_000 });
    expect(await cell.getByTestId('cell-output').textContent()).toBe('28\n');

    // Edit it and run again: version 2, and version 1 is still listed.
    await cell.getByTestId('user-cell-input').fill('import pandas as pd\ndf = pd.DataFrame({"residue": ["A", "C", "G"], "count": [10, 6, 12]})\nprint(df["count"].max())\ndf');
    await cell.getByTestId('user-cell-input').press('Control+Enter');
    await notebook.locator('[data-testid="user-cell"][data-version="2"][data-status="ok"]').waitFor({ timeout: 60_000 });
    expect(await cell.getByTestId('cell-output').textContent()).toBe('12\n');
    // The DataFrame value is a real table (the kernel's data, not its HTML): sort by count.
    const table = cell.getByTestId('table-output');
    const firstResidue = () => table.getByTestId('table-row').first().locator('td').first().textContent();
    expect(await firstResidue()).toBe('A');
    await table.getByRole('button', { name: 'Sort by count' }).click();
    expect(await firstResidue()).toBe('C');
    await table.getByRole('button', { name: 'Sort by count' }).click();
    expect(await firstResidue()).toBe('G');
    expect(await table.getByTestId('table-range').textContent()).toBe('rows 1–3 of 3');
    await cell.getByTestId('user-cell-versions').locator('summary').click();
    expect(await cell.getByTestId('user-cell-old-version').count()).toBe(2);
    expect(await cell.getByTestId('user-cell-old-version').first().textContent()).toContain('print(sum(counts.values()))');

    // The variables view lists the DataFrame with its shape.
    await page.getByTestId('variables-refresh').click();
    const df = page.locator('[data-testid="variable-row"][data-name="df"]');
    await df.waitFor({ timeout: 60_000 });
    expect(await df.getByTestId('variable-type').textContent()).toBe('DataFrame');
    expect(await df.getByTestId('variable-shape').textContent()).toBe('3 x 2');
    expect(await df.textContent()).toContain('columns: residue, count');

    // A long cell is interrupted from its own bar.
    await notebook.getByTestId('notebook-add-python').click();
    const slow = notebook.getByTestId('user-cell').nth(1);
    await slow.getByTestId('user-cell-input').fill('import time\nfor i in range(600):\n    time.sleep(0.1)');
    await slow.getByTestId('user-cell-run').click();
    await slow.getByTestId('user-cell-interrupt').click();
    await notebook.locator('[data-testid="user-cell"][data-status="interrupted"]').waitFor({ timeout: 60_000 });
    expect(await slow.getByTestId('cell-error').locator('strong').textContent()).toMatch(/^KeyboardInterrupt/);
    const generationBefore = await page.locator('[data-testid="kernel-row"][data-language="python"]').getByTestId('kernel-generation').getAttribute('title');

    // Restart the kernel; the next run is in a new generation, shown by a divider.
    page.once('dialog', (dialog) => void dialog.accept());
    await page.locator('[data-testid="kernel-row"][data-language="python"]').getByRole('button', { name: 'Restart' }).click();
    await page.locator('[data-testid="kernel-row"][data-language="python"][data-state="none"]').waitFor({ timeout: 30_000 });
    await slow.getByTestId('user-cell-input').fill('print("fresh kernel", "df" in globals())');
    await slow.getByTestId('user-cell-run').click();
    await notebook.locator('[data-testid="user-cell"][data-version="2"][data-status="ok"]').nth(1).waitFor({ timeout: 60_000 });
    expect(await slow.getByTestId('cell-output').textContent()).toBe('fresh kernel False\n');
    await notebook.getByTestId('user-generation-marker').waitFor();
    const generationAfter = await page.locator('[data-testid="kernel-row"][data-language="python"]').getByTestId('kernel-generation').getAttribute('title');
    expect(generationAfter).not.toBe(generationBefore);
    // A figure is shown and saves as SVG (its vector form, kept beside the PNG).
    await notebook.getByTestId('notebook-add-python').click();
    const plot = notebook.getByTestId('user-cell').nth(2);
    await plot.getByTestId('user-cell-input').fill('import matplotlib\nmatplotlib.use("Agg")\nimport matplotlib.pyplot as plt\nplt.bar(["A", "C", "G"], [10, 6, 12])\nplt.title("Residue counts")');
    await plot.getByTestId('user-cell-run').click();
    await plot.getByTestId('cell-figure-img').waitFor({ timeout: 60_000 });
    const [pngDownload] = await Promise.all([page.waitForEvent('download'), plot.getByTestId('figure-save-png').click()]);
    expect(pngDownload.suggestedFilename()).toBe('Residue-counts.png');
    expect(fs.readFileSync((await pngDownload.path())!).subarray(1, 4).toString('latin1')).toBe('PNG');
    const [download] = await Promise.all([page.waitForEvent('download'), plot.getByTestId('figure-save-svg').click()]);
    expect(download.suggestedFilename()).toBe('Residue-counts.svg');
    const svg = fs.readFileSync((await download.path())!, 'utf8');
    expect(svg).toMatch(/^<\?xml/);
    expect(svg).toContain('<svg ');
    // And as PDF (matplotlib's, captured beside the PNG).
    const [pdfDownload] = await Promise.all([page.waitForEvent('download'), plot.getByTestId('figure-save-pdf').click()]);
    expect(pdfDownload.suggestedFilename()).toBe('Residue-counts.pdf');
    expect(fs.readFileSync((await pdfDownload.path())!).subarray(0, 5).toString('latin1')).toBe('%PDF-');
    // A click shows the figure at full size, another fits it again.
    await plot.getByTestId('cell-figure-img').click();
    expect(await plot.getByTestId('cell-figure-img').getAttribute('class')).toBe('figure-zoomed');
    await plot.getByTestId('cell-figure-img').click();
    expect(await plot.getByTestId('cell-figure-img').getAttribute('class')).toBeNull();
    await page.evaluate('document.fonts.ready.then(() => true)');
    await saveShot(page, 'notebook-user-cells-en.png', { fullPage: true });

    // An R cell's data.frame value is a real table too (worker.R sends its data), sortable.
    await notebook.getByTestId('notebook-add-r').click();
    const rCell = notebook.getByTestId('user-cell').nth(3);
    await rCell.getByTestId('user-cell-input').fill('data.frame(chain = c("A", "B"), residues = c(21L, 30L))');
    await rCell.getByTestId('user-cell-run').click();
    await notebook.locator('[data-testid="user-cell"][data-language="r"][data-status="ok"]').waitFor({ timeout: 60_000 });
    const rTable = rCell.getByTestId('table-output');
    await rTable.getByRole('button', { name: 'Sort by residues' }).click();
    await rTable.getByRole('button', { name: 'Sort by residues' }).click();
    expect(await rTable.getByTestId('table-row').first().locator('td').first().textContent()).toBe('B');

    // Every run is in the ledger, each edit a new version of its cell.
    const recorded = shell.core.ledger.userCells.list(session.id);
    expect(recorded.map((c) => [c.version, c.status])).toEqual([
      [1, 'ok'],
      [2, 'ok'],
      [1, 'interrupted'],
      [2, 'ok'],
      [1, 'ok'],
      [1, 'ok'],
    ]);
    expect(shell.errors).toEqual([]);
  }, 240_000);
});
