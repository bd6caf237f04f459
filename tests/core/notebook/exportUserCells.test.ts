/**
 * Issue 25: the cells the user ran in the Notebook tab are part of the session's record:
 * the export carries every version (ledger/user_cells.jsonl) and places them in the
 * notebook where they ran among the agent's turns; `openai4s reproduce` runs them again.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';
import { exportContributors } from '../../../src-main/core/export/contributors';
import { exportSession } from '../../../src-main/core/export/exportSession';
import { reproducePackage } from '../../../src-main/core/export/reproduce/reproduce';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { validAnswer } from '../../support/mockModel';

const caller = { origin: 'app://openai4s', isMainFrame: true };
let core: Core;
let model: ScriptedModel;
let dir: string;
let zip: string;

beforeAll(async () => {
  model = await startScriptedModel([{ reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] }]);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-usercells-export-'));
  core = createCore({
    env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_BASE_URL: model.baseUrl, OPENAI4S_OPENAI_API_KEY: 'k', OPENAI4S_OPENAI_MODEL: 'scripted-model' },
  });
  const session = core.ledger.createSession('user cells');
  const handlers = createHandlers(core);
  const first = await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'x = 6 * 7\nprint(x)' }, caller);
  await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'x = 6 * 8\nprint(x)', cellKey: first.userCell!.cellKey }, caller);
  const run = core.runner.submit({ sessionId: session.id, mutationId: 'm1', message: 'What is x?' });
  await core.runner.result(run.id);
  for (let i = 0; i < 500 && core.kernels.lease.view(session.id).holder; i++) await new Promise((r) => setTimeout(r, 10));
  await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'print("after", x + 1)' }, caller);
  // A host call of a user's cell is kept with the cell, so the export can answer it again.
  const listed = await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'found = host.list_artifacts()\nprint("artifacts:", len(found["output"]))' }, caller);
  expect(listed.stdout).toBe('artifacts: 0\n');
  zip = path.join(dir, 'session.zip');
  exportSession(core, session.id, zip, exportContributors(() => core.provenance));
}, 120_000);

afterAll(async () => {
  await core.close();
  await model.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('user cells in the export', () => {
  it('every version is in the ledger extract and in the notebook, where it ran among the turns', () => {
    const entries = unzipSync(new Uint8Array(fs.readFileSync(zip)));
    const recorded = strFromU8(entries['ledger/user_cells.jsonl']!).trim().split('\n').map((l) => JSON.parse(l));
    expect(recorded.map((c) => [c.version, c.code])).toEqual([
      [1, 'x = 6 * 7\nprint(x)'],
      [2, 'x = 6 * 8\nprint(x)'],
      [1, 'print("after", x + 1)'],
      [1, 'found = host.list_artifacts()\nprint("artifacts:", len(found["output"]))'],
    ]);
    expect(recorded[3].result.hostCalls).toBeUndefined(); // kept beside the result, not in it
    const calls = strFromU8(entries['reproduce/host_calls.jsonl']!).trim().split('\n').map((l) => JSON.parse(l));
    expect(calls).toEqual([expect.objectContaining({ method: 'list_artifacts', arguments: {}, status: 'ok', output: [] })]);
    const notebook = JSON.parse(strFromU8(entries['notebook.ipynb']!));
    const order = notebook.cells
      .filter((c: { cell_type: string; metadata: { openai4s?: { setup?: boolean } } }) => !c.metadata.openai4s?.setup)
      .map((c: { cell_type: string; source: string[] }) => `${c.cell_type}: ${c.source.join('').split('\n')[0]}`);
    expect(order).toEqual([
      'markdown: # user cells',
      'markdown: **Cell run by the user** (Notebook tab, version 1):',
      'code: x = 6 * 7',
      'markdown: **Cell run by the user** (Notebook tab, version 2):',
      'code: x = 6 * 8',
      'markdown: **Question:** What is x?',
      'markdown: **Answer:**',
      'markdown: **Cell run by the user** (Notebook tab, version 1):',
      'code: print("after", x + 1)',
      'markdown: **Cell run by the user** (Notebook tab, version 1):',
      'code: found = host.list_artifacts()',
    ]);
    const last = notebook.cells.at(-3);
    expect(last.metadata.openai4s).toMatchObject({ user: true, version: 1, status: 'ok' });
    expect(last.outputs[0].text.join('')).toBe('after 49\n');
  });

  it('openai4s reproduce runs them again in order, with the same printed output', async () => {
    const report = await reproducePackage(zip, { dataDir: core.config.dataDir, processEnv: core.config.processEnv, sandboxMode: () => core.settings.sandboxMode() });
    expect(report.cells.map((c) => [c.index, c.status, c.stdout])).toEqual([
      [1, 'ok', 'match'],
      [2, 'ok', 'match'],
      [3, 'ok', 'match'],
      [4, 'ok', 'match'],
    ]);
    expect(report.unanswered).toEqual([]);
    expect(report.ok).toBe(true);
  }, 120_000);
});
