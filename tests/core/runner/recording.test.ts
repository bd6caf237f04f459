import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { recordingExecutor, recordingKernel } from '../../../src-main/core/runner/recording';
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
  it('records a tool batch with raw and parsed arguments, parse errors and results in call order', async () => {
    const executor = recordingExecutor(
      ledger,
      {
        executeBatch: async (calls) => {
          // While the batch runs, its group is open: a crash now leaves it for repair.
          expect(ledger.actions.runningGroupIds()).toHaveLength(1);
          return calls.map((c) => ({ toolCallId: c.id, toolName: c.name, content: `${c.name} ok`, isError: c.name === 'web_fetch', output: { n: 1 } }));
        },
      },
      (tool) => (tool === 'web_fetch' ? 'external' : 'read'),
    );
    await executor.executeBatch(
      [
        { id: 'a', name: 'list_dir', rawArguments: '{"path":"."}', arguments: { path: '.' }, parseError: null },
        { id: 'b', name: 'web_fetch', rawArguments: '{"url":', arguments: undefined, parseError: 'Unexpected end of JSON input' },
      ],
      ctx,
    );
    const [group] = ledger.actions.listByRun(ctx.runId);
    expect(group).toMatchObject({ kind: 'tool_batch', turn: 2, status: 'failed' });
    expect(group!.events.map((e) => [e.toolCallId, e.name, e.rawArguments, e.parseError ?? null, e.sideEffect, e.isError])).toEqual([
      ['a', 'list_dir', '{"path":"."}', null, 'read', false],
      ['b', 'web_fetch', '{"url":', 'Unexpected end of JSON input', 'external', true],
    ]);
    expect(group!.events[0]!.arguments).toEqual({ path: '.' });
    expect(group!.events[0]!.result).toEqual({ n: 1 });
    expect(ledger.actions.runningGroupIds()).toEqual([]);
  });

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
