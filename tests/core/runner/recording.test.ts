import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { recordingKernel } from '../../../src-main/core/runner/recording';
import type { ActionContext } from '../../../src-main/core/engine/ports';

let dir: string;
let ledger: Ledger;
let ctx: ActionContext;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-rec-'));
  ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
  const session = ledger.createSession();
  const { run } = ledger.runs.submit(session.id, 'm', 'hi');
  ledger.runs.start(run.id, null, null);
  ctx = { sessionId: session.id, runId: run.id, turn: 2, signal: new AbortController().signal, emit: () => {} };
});
afterEach(() => {
  ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('action groups in the ledger', () => {
  it('records a cell attempt and closes the group even when the kernel throws', async () => {
    const kernel = recordingKernel(ledger, { executeCell: async () => ({ ok: true, summary: 'stdout: 42' }) });
    await kernel.executeCell('python', 'print(6*7)', ctx);
    const broken = recordingKernel(ledger, {
      executeCell: async () => {
        throw new Error('kernel gone');
      },
    });
    await expect(broken.executeCell('r', 'cat(1)', ctx)).rejects.toThrow('kernel gone');
    const groups = ledger.actions.listByRun(ctx.runId);
    expect(groups.map((g) => [g.kind, g.status, g.events[0]!.name, g.events[0]!.rawArguments])).toEqual([
      ['cell', 'completed', 'python', 'print(6*7)'],
      ['cell', 'failed', 'r', 'cat(1)'],
    ]);
    expect(groups[0]!.events[0]!.result).toEqual({ ok: true, summary: 'stdout: 42' });
  });
});
