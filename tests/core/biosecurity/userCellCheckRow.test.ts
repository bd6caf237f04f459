import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';

/**
 * The review row of a cell the user runs (kernel.execute) is written while the kernel runs
 * the cell, not before it is sent (the main thread is idle then); it keeps the verdict's
 * time, is durable before the answer, and is written at once when the cell must wait.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
}, 30_000);

const CALLER = { origin: 'app://openai4s', isMainFrame: true };

function start(): Core {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cellcheck-'));
  const { OPENAI4S_UNATTENDED_APPROVAL: _a, OPENAI4S_BIOSECURITY: _b, OPENAI4S_CELL_REVIEW: _c, ...base } = process.env;
  const core = createCore({ env: { ...base, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
  cleanups.push(async () => {
    await core.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return core;
}

const kernelBusy = (core: Core, sessionId: string) => core.kernels.status(sessionId).slots.some((s) => s.language === 'python' && s.state === 'busy');

/** Notes, for each check row prepared, whether the session's kernel was running a cell then. */
function watchPrepares(core: Core, sessionId: string): { busy: boolean[] } {
  const seen = { busy: [] as boolean[] };
  const safety = core.ledger.safety;
  const prepare = safety.prepare.bind(safety);
  safety.prepare = (input, at) => {
    seen.busy.push(kernelBusy(core, sessionId));
    return prepare(input, at);
  };
  return seen;
}

describe("a user cell's review row", () => {
  it('is written while the cell runs, with the time of its verdict, and is durable when the cell is answered', async () => {
    const core = start();
    const session = core.ledger.createSession('cells');
    const handlers = createHandlers(core);
    await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'x = 1' }, CALLER); // the kernel starts
    const seen = watchPrepares(core, session.id);
    const run = await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'import time\ntime.sleep(0.2)\nx' }, CALLER);
    expect(run.status).toBe('ok');
    expect(seen.busy).toEqual([true]);
    // Durable before the answer: in the ledger's journal now (committed with the next group commit).
    const journal = fs.readFileSync(core.ledger.auditJournal!.file, 'utf8');
    const checks = core.ledger.safety.listBySession(session.id);
    expect(checks).toHaveLength(2);
    expect(journal).toContain(checks[1]!.id);
    const cell = core.ledger.userCells.list(session.id).find((c) => c.id === run.userCell?.id)!;
    expect(checks[1]).toMatchObject({ subject: 'user_cell', verdict: 'low', outcome: 'proceeded' });
    expect(checks[1]!.at <= cell.startedAt).toBe(true);
  }, 60_000);

  it('is written at once when the cell must wait for the kernel another holder has', async () => {
    const core = start();
    const session = core.ledger.createSession('cells');
    const handlers = createHandlers(core);
    const release = core.kernels.lease.tryAcquire(session.id, { kind: 'agent', id: 'run_x', label: 'the agent' })!;
    const answered = handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'y = 2' }, CALLER);
    await expect.poll(() => core.ledger.safety.listBySession(session.id).length).toBe(1);
    expect(core.ledger.userCells.list(session.id)).toEqual([]);
    release();
    expect((await answered).status).toBe('ok');
    expect(core.ledger.safety.listBySession(session.id)).toEqual([expect.objectContaining({ subject: 'user_cell', outcome: 'proceeded' })]);
  }, 60_000);

  it('is written when the cell never reaches a kernel', async () => {
    const core = start();
    const session = core.ledger.createSession('cells');
    const handlers = createHandlers(core);
    const execute = core.kernels.execute.bind(core.kernels);
    core.kernels.execute = () => Promise.reject(new Error('no kernel for this test'));
    await expect(handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'z = 3' }, CALLER)).rejects.toThrow('no kernel for this test');
    core.kernels.execute = execute;
    expect(core.ledger.safety.listBySession(session.id)).toEqual([expect.objectContaining({ subject: 'user_cell', outcome: 'proceeded' })]);
  }, 60_000);
});
