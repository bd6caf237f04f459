import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { SUMMARY_SYSTEM } from '../../src-main/core/archive/handoff';
import type { StaticStep } from '../../src-main/core/llm/scripted/script';
import { saveScreenshot, type Shell } from '../support/e2e/app';
import { askQuestion, e2eSuite, scriptedModelEnv } from '../support/e2e/suite';
import { validAnswer } from '../support/mockModel';

/**
 * Issue 19 in the browser, against the real core and a scripted model: a long run under a
 * small window (OPENAI4S_CONTEXT_WINDOW=8000) reads twelve 10 KB files; the conversation
 * shows the divider "Earlier turns summarised" whose handoff opens; the model recalls an
 * archived result and the recall card shows exactly the archived bytes.
 */
const FILES = 12;
const fileText = (i: number) => Array.from({ length: 240 }, (_, l) => `file ${i} row ${l}\tvalue ${(i * 31 + l) * 0.5}\tgene G${l % 17}`).join('\n') + '\n';
const handoff = {
  objective: 'Read every data file.',
  constraints: ['Stay in the workspace.'],
  decisions: ['Read the files in order.'],
  done: ['Read the first files.'],
  inProgress: ['Reading the rest.'],
  blocked: [],
  nextMove: 'Read the next file.',
  keyArtifacts: [],
  activeKernelGeneration: 'none',
};

interface WireBody {
  messages: { role: string; content?: string | null }[];
}

describe('workbench: a long run is compacted and recalls archived results', () => {
  const e2e = e2eSuite();

  it('shows the compaction divider with its handoff, and the recall card shows the archived bytes', async () => {
    let step = 0;
    let sha: string | null = null;
    // Opened after the model; the script reads it only once requests arrive.
    let shell: Shell | null = null;
    const script = (body: unknown): StaticStep => {
      const b = body as WireBody;
      if (b.messages[0]?.role === 'system' && b.messages[0].content === SUMMARY_SYSTEM) return { reply: [{ text: JSON.stringify(handoff) }] };
      const k = step++;
      if (k === 0) {
        // The session exists once its first request arrives: its data files are written now.
        const [session] = shell!.core.ledger.sessions.list();
        const dir = path.join(shell!.core.kernels.workspaceFor(session!.id), 'data');
        fs.mkdirSync(dir, { recursive: true });
        for (let i = 0; i < FILES; i++) fs.writeFileSync(path.join(dir, `f${i}.txt`), fileText(i));
      }
      if (k < FILES) return { reply: [{ toolCall: { name: 'read_text_file', arguments: { path: `data/f${k}.txt` } } }] };
      if (k === FILES) {
        sha = /\[Archived result of read_text_file[^\n]*sha256 ([0-9a-f]{64})/.exec(b.messages.map((m) => m.content ?? '').join('\n'))?.[1] ?? null;
        return { reply: [{ toolCall: { name: 'recall', arguments: { sha256: sha, max_bytes: 600 } } }] };
      }
      return { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] };
    };
    const model = await e2e.startModel(Array.from({ length: 60 }, () => script));
    shell = await e2e.openShell({
      locale: 'en-US',
      env: scriptedModelEnv(model.baseUrl, 'sk-e2e-compaction-never-shown-4242', { OPENAI4S_CONTEXT_WINDOW: '8000' }),
      viewport: { width: 1440, height: 1000 },
    });
    const { page, core } = shell;
    await shell.open();
    await askQuestion(page, 'Read every data file.');
    await page.locator('[data-testid="run-footer"][data-status="completed"]').waitFor({ timeout: 120_000 });

    // The divider, closed; opened, it shows the handoff the model continued from.
    const divider = page.getByTestId('compaction-divider').first();
    await divider.getByText('Earlier turns summarised').waitFor();
    await divider.locator('summary').click();
    const shown = divider.getByTestId('compaction-handoff');
    await shown.getByText('Read the next file.').waitFor();
    expect(await shown.textContent()).toContain('Read every data file.');
    await saveScreenshot(page, 'workbench-compaction-en.png');

    // The recall card shows the archived bytes exactly: its output page is the start of the archived result.
    expect(sha).toMatch(/^[0-9a-f]{64}$/);
    const card = page.locator('[data-testid="tool-card"][data-tool="recall"]');
    await card.locator('summary').click();
    const output = JSON.parse((await card.getByTestId('tool-output').textContent()) ?? '{}') as { text: string; byteStart: number; byteEnd: number; sha256: string };
    expect(output.sha256).toBe(sha);
    const [session] = core.ledger.sessions.list();
    const archived = core.host.archive.read(session!.id, sha!);
    expect(createHash('sha256').update(archived).digest('hex')).toBe(sha);
    expect(Buffer.from(output.text, 'utf8').equals(archived.subarray(output.byteStart, output.byteEnd))).toBe(true);
    expect(output.byteEnd - output.byteStart).toBeGreaterThan(500);
  }, 240_000);
});
