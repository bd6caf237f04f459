import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { copyFile, mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_MODEL } from '../../src-main/core/demo/insulinStory';
import { verifyExport } from '../../src-main/core/export/verify';
import { DEMO_MODEL_ID, isReplayTitle } from '../../src-renderer/src/store/replay';
import { launchChromium, openShell, saveShot, type Shell } from '../support/e2e/app';
import { PROJECT_ROOT } from '../support/e2e/build';

const CELL_STATUS_ZH: Record<string, string> = { ok: '成功', error: '出错', interrupted: '已中断', died: '内核崩溃' };

/**
 * The first user story in the UI (issue 10): "Try the demo" replays the insulin story
 * against the real core (engine, ledger, sandboxed Python kernel, connectors, evidence,
 * artifacts, export). Only the model replies and the UniProt/RCSB answers are recorded;
 * the demo serves them itself on 127.0.0.1. The tests run in order on one session.
 */
const DEMO_TITLE = '演示回放：人胰岛素 INS（录制数据）';
const FIXTURES = path.join(PROJECT_ROOT, 'resources', 'demo');
/**
 * The README's picture. Always written under test-results/; copied over the committed
 * docs/images/insulin-story.png only when asked (OPENAI4S_UPDATE_README_SHOT=1), so a
 * test run does not dirty the checkout with a picture whose ids differ each time.
 */
const README_SHOT = path.join(PROJECT_ROOT, 'docs', 'images', 'insulin-story.png');
const UPDATE_README_SHOT = process.env.OPENAI4S_UPDATE_README_SHOT === '1';

/** An image element's decoded width (0 until it has loaded); runs in the page. */
const naturalWidth = (img: unknown) => (img as { naturalWidth: number }).naturalWidth;

const sha256Of = (file: string) =>
  createHash('sha256').update(readFileSync(path.join(FIXTURES, file))).digest('hex');

describe('the insulin story in the workbench (Try the demo)', () => {
  let browser: Browser;
  let shell: Shell;
  let page: Page;

  beforeAll(async () => {
    // WebGL on the CPU (SwiftShader), so the PDB shows in the real 3D viewer.
    browser = await launchChromium({ webgl: true });
    shell = await openShell(browser, {
      locale: 'en-US',
      viewport: { width: 1280, height: 800 },
      env: { OPENAI4S_KERNEL_PREWARM: '0' },
    });
    page = shell.page;
    await shell.open();
  });
  afterAll(async () => {
    await shell?.close();
    await browser?.close();
  });

  const shot = (name: string) => saveShot(page, name);
  const language = (name: 'English' | '中文') => page.getByRole('button', { name }).click();
  // Then two frames: messages are content-visibility: auto, so the frame right after a jump can
  // still skip the ones it brought into view (a screenshot then showed a blank where they are).
  const scrollConversation = (to: 'top' | 'bottom') =>
    page.getByTestId('conversation').evaluate(
      (el, where) =>
        new Promise<void>((resolve) => {
          el.scrollTop = where === 'top' ? 0 : el.scrollHeight;
          const frames = globalThis as unknown as { requestAnimationFrame(callback: () => void): number };
          frames.requestAnimationFrame(() => frames.requestAnimationFrame(() => resolve()));
        }),
      to,
    );
  const answer = () => page.getByTestId('answer-card');

  it('offers the demo on the start page, labelled as a recorded replay', async () => {
    await page.getByRole('heading', { name: 'Ask a research question' }).waitFor();
    const button = page.getByTestId('demo-start');
    expect(await button.textContent()).toContain('Try the demo (recorded replay)');
    expect(await page.getByTestId('demo-card').textContent()).toContain('Recorded replay');
    // Reachable later too, from the sidebar.
    expect(await page.getByTestId('demo-start-sidebar').textContent()).toContain('Try the demo');
    await shot('welcome-demo-en.png');
    await language('中文');
    expect(await button.textContent()).toContain('试用演示（录制回放）');
    await shot('welcome-demo-zh.png');
  });

  it('plays the story to a cited Chinese answer: reasoning, tool cards, the cell and its figure', async () => {
    // The renderer tells a replay by the demo's model id and title, as main sets them.
    expect(DEMO_MODEL_ID).toBe(DEMO_MODEL);
    expect(isReplayTitle(DEMO_TITLE)).toBe(true);
    await page.getByTestId('demo-start').click();
    expect(await page.getByTestId('session-title').textContent()).toBe(DEMO_TITLE);
    const sessionId = (await page.getByTestId('session-row').first().getAttribute('data-session-id'))!;
    expect(shell.core.ledger.detail(sessionId).session.title).toBe(DEMO_TITLE);
    await page.getByTestId('replay-banner').waitFor();
    expect(await page.getByTestId('badge-replay').first().textContent()).toBe('回放');
    await page
      .locator('[data-testid="run-footer"][data-status="completed"]')
      .waitFor({ timeout: 45_000 });
    // The run that played is the demo's (the banner's source), in a real session of the ledger.
    expect(shell.core.ledger.detail(sessionId).runs.map((r) => [r.status, r.model])).toEqual([
      ['completed', DEMO_MODEL],
    ]);

    expect(await page.getByTestId('reasoning').first().textContent()).toContain('并行检索序列与结构');
    const tools = page.locator('[data-testid="tool-card"][data-tool="science_search"]');
    expect(await tools.count()).toBe(3);
    for (const state of await tools.evaluateAll((els) => els.map((e) => e.getAttribute('data-state'))))
      expect(state).toBe('output-available');

    const cell = page.getByTestId('conversation').getByTestId('cell-card');
    expect(await cell.count()).toBe(1);
    expect(await cell.getAttribute('data-status')).toBe('ok');
    const figure = cell.getByTestId('cell-figure-img').first();
    await figure.waitFor();
    await expect
      .poll(() => figure.evaluate(naturalWidth))
      .toBeGreaterThan(100);

    // The cited answer: observed, computed and inferred claims, each with evidence.
    const claims = answer().getByTestId('claim');
    const bases = await claims.evaluateAll((els) => els.map((e) => e.getAttribute('data-basis')));
    expect(bases).toEqual(['observed', 'computed', 'observed', 'inferred']);
    expect(await answer().getByTestId('basis-badge').allTextContents()).toEqual([
      '观察',
      '计算',
      '观察',
      '推断',
    ]);
    expect(await answer().textContent()).toContain('人胰岛素（INS，UniProt P01308）演示报告');
    for (let i = 0; i < bases.length; i++)
      expect(await claims.nth(i).getByTestId('evidence-link').count()).toBeGreaterThan(0);
    const footer = await page.getByTestId('run-footer').textContent();
    expect(footer).toContain('openai4s-demo-replay');

    // The README picture: the cited answer, and the figure open in the Artifacts tab.
    await page.getByRole('tab', { name: '产物' }).click();
    await page.locator('.artifact-row').filter({ hasText: /^figures\/.+\.png/ }).click();
    const preview = page.getByTestId('artifact-image');
    await preview.waitFor();
    await expect
      .poll(() => preview.evaluate(naturalWidth))
      .toBeGreaterThan(100);
    // The markdown renderer is a lazily loaded chunk: picture the answer once it has rendered.
    await answer().locator('[data-markdown="rendered"]').first().waitFor();
    await answer().evaluate((el) => el.scrollIntoView({ block: 'start' }));
    await page.getByTestId('conversation').evaluate((el) => (el.scrollTop -= 12));
    const readme = await shot('insulin-story-readme-zh.png');
    if (UPDATE_README_SHOT) {
      await mkdir(path.dirname(README_SHOT), { recursive: true });
      await copyFile(readme, README_SHOT);
    }
    await scrollConversation('bottom');
    await shot('story-answer-zh.png');
  });

  it('opens the real Evidence record of every cited id (source, time, sha256)', async () => {
    // The chips show the records' labels ("UniProt P01308"); their ids are attributes.
    const ids = [...new Set(await answer().getByTestId('evidence-link').evaluateAll((els) => els.map((e) => e.getAttribute('data-evidence-id')!)))];
    expect(ids.length).toBeGreaterThanOrEqual(3);
    const records = await shell.core.provenance.evidence.list(
      (await page.getByTestId('session-row').first().getAttribute('data-session-id'))!,
    );
    for (const id of ids) {
      await answer().locator(`[data-testid="evidence-link"][data-evidence-id="${id}"]`).first().click();
      const item = page.locator(`[data-testid="evidence-item"][data-evidence-id="${id}"]`);
      await item.waitFor();
      expect(await item.getAttribute('class')).toContain('focused');
      const record = records.find((r) => r.id === id);
      expect(record, `evidence ${id} is a record of this session`).toBeDefined();
      // A cell run is named in the window's language (the stored title is the core's English).
      const cell = record!.envelope as { language?: string; cell_number?: number; status?: string };
      const title = record!.kind === 'cell' ? `${cell.language === 'r' ? 'R' : 'Python'} 单元 ${cell.cell_number}（${CELL_STATUS_ZH[cell.status!]}）` : record!.title;
      expect(await item.locator('.evidence-title').textContent()).toBe(title);
      // Its kernel generation with the cell's status, in words too.
      if (record!.kind === 'cell') expect(await item.getByTestId('evidence-generation').textContent()).toMatch(new RegExp(` · ${CELL_STATUS_ZH[cell.status!]}$`));
      expect(await item.getByTestId('evidence-time').count()).toBeGreaterThan(0);
      if (record!.kind === 'retrieval') {
        // Source database, request URL, retrieval time and the hash of the raw bytes, as recorded.
        const env = record!.envelope as {
          database: string;
          provenance: { request_url: string; sha256: string; retrieved_at: string }[];
        };
        expect(await item.getByTestId('evidence-source').textContent()).toBe(env.database);
        expect(await item.getByTestId('evidence-request').allTextContents()).toEqual(
          env.provenance.map((p) => expect.stringContaining(p.request_url)),
        );
        expect(await item.getByTestId('evidence-time').first().textContent()).toMatch(/^检索于 /);
        expect(
          await item.getByTestId('evidence-sha256').evaluateAll((els) => els.map((e) => e.title)),
        ).toEqual(env.provenance.map((p) => p.sha256));
      }
    }
    // The UniProt record's hash is the hash of the recorded FASTA bytes.
    const fastaSha = sha256Of('uniprot-P01308.fasta');
    expect(await page.locator(`dd[title="${fastaSha}"]`).count()).toBe(1);
    await shot('story-evidence-zh.png');
    await page.getByRole('tab', { name: /全部结果/ }).click();
    expect(await page.getByTestId('evidence-item').count()).toBe(records.length);
    await language('English');
    await page.getByRole('tab', { name: /References/ }).click();
    await shot('story-evidence-en.png');
  });

  it('lists the artifacts with previews: FASTA, the PDB in the 3D viewer, the figure', async () => {
    await page.getByRole('tab', { name: 'Artifacts' }).click();
    const rows = page.getByTestId('artifact-list').locator('.artifact-path');
    await expect.poll(() => rows.count()).toBeGreaterThanOrEqual(3);
    const paths = await rows.allTextContents();
    expect(paths).toEqual(
      expect.arrayContaining(['sequences/P01308.fasta', 'structures/4INS.pdb']),
    );
    const png = paths.find((p) => /^figures\/.+\.png$/.test(p));
    expect(png).toBeDefined();
    const open = (p: string) => page.locator('.artifact-row').filter({ hasText: p }).click();

    await open('sequences/P01308.fasta');
    const fasta = page.locator('.artifact-preview[data-kind="fasta"]');
    await fasta.waitFor();
    expect(await fasta.locator('.fasta-header').first().textContent()).toContain('P01308');
    await shot('story-artifacts-fasta-en.png');

    await open(png!);
    const image = page.getByTestId('artifact-image');
    await image.waitFor();
    await expect
      .poll(() => image.evaluate(naturalWidth))
      .toBeGreaterThan(100);

    await open('structures/4INS.pdb');
    const viewer = page.locator('[data-testid="structure-viewer"][data-state="ready"]');
    await viewer.waitFor({ timeout: 20_000 });
    expect(await viewer.locator('canvas').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('structure-fallback').count()).toBe(0);
    // Style, colour and focus (issue 25): sticks coloured by chain, zoomed on chain B, then a surface.
    await page.getByTestId('structure-style').selectOption('stick');
    await page.getByTestId('structure-colour').selectOption('chain');
    await page.getByTestId('structure-chain').selectOption('B');
    expect(await viewer.getAttribute('data-style')).toBe('stick');
    expect(await viewer.getAttribute('data-chain')).toBe('B');
    await page.getByTestId('structure-style').selectOption('surface');
    expect(await page.locator('[data-testid="structure-viewer"][data-style="surface"][data-colour="chain"]').count()).toBe(1);
    expect(await page.getByTestId('structure-chain').locator('option').allTextContents()).toEqual(['All chains', 'Chain A', 'Chain B', 'Chain C', 'Chain D']);
    expect(shell.errors).toEqual([]);
    await page.getByTestId('structure-style').selectOption('cartoon');
    await page.getByTestId('structure-chain').selectOption('');
    // In cartoon (cheap to redraw on the CPU): colour by a residue property, focus one residue (a wrong one is named), fullscreen.
    await page.getByTestId('structure-colour').selectOption('hydrophobicity');
    expect(await viewer.getAttribute('data-colour')).toBe('hydrophobicity');
    await page.getByTestId('structure-residue').fill('A:21');
    expect(await viewer.getAttribute('data-residue')).toBe('A:21');
    await page.getByTestId('structure-residue').fill('A:99');
    expect(await page.getByTestId('structure-residue-error').textContent()).toBe('No residue A:99 in this structure.');
    expect(await viewer.getAttribute('data-residue')).toBe('');
    await page.getByTestId('structure-residue').fill('');
    await page.getByTestId('structure-fullscreen').click();
    await expect.poll(() => page.evaluate("document.fullscreenElement ? document.fullscreenElement.getAttribute('data-testid') : null")).toBe('structure-frame');
    await page.evaluate('document.exitFullscreen()');
    await page.getByTestId('structure-colour').selectOption('spectrum');
    await language('中文');
    await shot('story-artifacts-structure-zh.png');
  }, 150_000);

  it('shows the cell in the Notebook tab with its kernel generation', async () => {
    await page.getByRole('tab', { name: '笔记本' }).click();
    const notebook = page.getByTestId('notebook');
    expect(await notebook.getByTestId('cell-card').count()).toBe(1);
    expect(await notebook.getByTestId('generation-marker').count()).toBe(1);
    expect(await notebook.getByTestId('cell-code').textContent()).toContain('import');
    await scrollConversation('top');
    await shot('story-notebook-zh.png');
  });

  it('exports the session as a zip that verifies, and shows where it went and its digest', async () => {
    await language('English');
    await page.getByTestId('export-button').click();
    const result = page.locator('[data-testid="export-result"][data-status="done"]');
    await result.waitFor({ timeout: 20_000 });
    const file = (await result.getByTestId('export-file').textContent())!;
    const digest = (await result.getByTestId('export-digest').textContent())!;
    expect(file.startsWith(shell.dataDir)).toBe(true);
    expect(existsSync(file)).toBe(true);
    const report = verifyExport(file);
    expect(report.problems).toEqual([]);
    expect(report.ok).toBe(true);
    expect(report.manifest?.digest).toBe(digest);
    expect(report.manifest!.files.some((f) => /\.png/.test(f.path))).toBe(true);
    await shot('story-export-en.png');

    expect(shell.served.blocked).toEqual([]);
    expect(shell.errors).toEqual([]);
  });
});
