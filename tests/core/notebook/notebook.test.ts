/**
 * Issue 25, working in the notebook (core): the user's cells run in the session's kernel
 * under the kernel lease (agent turns, user cells and environment switches take turns,
 * FIFO, the waiter sees the holder), every version is recorded append-only, the variables
 * view lists a DataFrame, and the agent reads the user's cells in its next request.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';
import { KernelLease, LeaseWaitAborted } from '../../../src-main/core/kernel/kernelLease';
import { NotebookCells } from '../../../src-main/core/runner/notebookCells';
import { AppError } from '../../../src-preload/contract/errors';
import type { KernelSlotStatus } from '../../../src-preload/contract/kernel';
import { startScriptedModel, type ScriptedModel, type ScriptStep } from '../../support/scriptedModel';
import { validAnswer } from '../../support/mockModel';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const caller = { origin: 'app://openai4s', isMainFrame: true };

async function start(script: ScriptStep[] = []): Promise<{ core: Core; model: ScriptedModel }> {
  const model = await startScriptedModel(script);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-notebook-'));
  const core = createCore({
    env: {
      ...process.env,
      OPENAI4S_DATA_DIR: dir,
      OPENAI4S_KERNEL_PREWARM: '0',
      PIP_NO_INDEX: '1',
      OPENAI4S_PROVIDER: 'openai',
      OPENAI4S_OPENAI_BASE_URL: model.baseUrl,
      OPENAI4S_OPENAI_API_KEY: 'scripted-test-key',
      OPENAI4S_OPENAI_MODEL: 'scripted-model',
    },
  });
  cleanups.push(async () => {
    await core.close();
    await model.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });
  return { core, model };
}

describe('the kernel lease', () => {
  it('hands the kernels on in arrival order, tells the waiter who holds them, and drops a waiter that stops', async () => {
    const lease = new KernelLease();
    const order: string[] = [];
    const agent = { kind: 'agent' as const, id: 'run-1', label: "the agent's run" };
    const releaseAgent = await lease.acquire('s', agent);
    const seen: string[] = [];
    const user = lease.acquire('s', { kind: 'user', id: 'uc_1', label: 'your Python cell' }, { onWait: (h) => seen.push(h.label) }).then((r) => (order.push('user'), r));
    const stop = new AbortController();
    const stopped = lease.acquire('s', { kind: 'user', id: 'uc_2', label: 'your R cell' }, { signal: stop.signal });
    const env = lease.acquire('s', { kind: 'environment', id: 'py-env', label: 'an environment switch' }).then((r) => (order.push('environment'), r));
    expect(seen).toEqual(["the agent's run"]);
    expect(lease.view('s')).toMatchObject({ holder: agent, waiting: [{ id: 'uc_1' }, { id: 'uc_2' }, { id: 'py-env' }] });
    stop.abort();
    await expect(stopped).rejects.toBeInstanceOf(LeaseWaitAborted);
    expect(lease.view('s').waiting.map((w) => w.id)).toEqual(['uc_1', 'py-env']);
    releaseAgent();
    releaseAgent(); // a second release is a no-op, not a hand-on
    const releaseUser = await user;
    expect(lease.view('s').holder?.id).toBe('uc_1');
    releaseUser();
    (await env)();
    expect(order).toEqual(['user', 'environment']);
    expect(lease.view('s')).toEqual({ holder: null, since: null, waiting: [] });
  });
});

describe('kernel.restart under the lease', () => {
  it('is refused while the agent, a cell or a switch holds the kernel, naming the holder and the fix; it holds the lease while it restarts', async () => {
    const lease = new KernelLease();
    let finishRestart = () => {};
    const restarts: string[] = [];
    const kernels = {
      execute: async () => {
        throw new Error('not in this test');
      },
      status: (sessionId: string) => ({ sessionId, slots: [] }),
      workspaceFor: () => '/nowhere',
      restart: (sessionId: string, language: 'python' | 'r') => {
        restarts.push(language);
        return new Promise<KernelSlotStatus>((resolve) => {
          finishRestart = () => resolve({ language, state: 'none', generation: null, sandbox: null, startedAt: null, cells: 0 });
        });
      },
    };
    const notebook = new NotebookCells({ userCells: () => ({ record: () => { throw new Error('not in this test'); }, list: () => [] }), kernels, lease });

    const releaseAgent = await lease.acquire('s', { kind: 'agent', id: 'run-1', label: "the agent's run" });
    const refused = notebook.restart('s', 'python');
    await expect(refused).rejects.toBeInstanceOf(AppError);
    await expect(refused).rejects.toMatchObject({
      code: 'conflict',
      message: "The Python kernel was not restarted: the agent's run holds it; stop the run or wait for it to end, then restart it.",
    });
    releaseAgent();
    const releaseCell = await lease.acquire('s', { kind: 'user', id: 'uc_1', label: 'your R cell' });
    await expect(notebook.restart('s', 'r')).rejects.toThrow('The R kernel was not restarted: your R cell holds it; interrupt it or wait for it to finish, then restart it.');
    releaseCell();
    expect(restarts).toEqual([]); // nothing was torn down under a holder

    // Free: it restarts, and holds the kernel meanwhile; a cell sent now waits for the new generation.
    const restarted = notebook.restart('s', 'python');
    expect(lease.view('s').holder).toMatchObject({ kind: 'user', label: 'a restart of the Python kernel' });
    let cellGotIt = false;
    const cell = lease.acquire('s', { kind: 'user', id: 'uc_2', label: 'your Python cell' }).then((release) => ((cellGotIt = true), release));
    await new Promise((r) => setTimeout(r, 20));
    expect(cellGotIt).toBe(false);
    finishRestart();
    expect(await restarted).toMatchObject({ language: 'python', state: 'none' });
    (await cell)();
    expect(restarts).toEqual(['python']);
    expect(lease.view('s')).toEqual({ holder: null, since: null, waiting: [] });
  });

  it('the route refuses a restart during the agent\'s run and restarts once the run gave the kernel back', async () => {
    const { core } = await start();
    const session = core.ledger.createSession('restart');
    const handlers = createHandlers(core);
    await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'x = 1' }, caller);
    const generation = core.kernels.status(session.id).slots.find((s) => s.language === 'python')!.generation;
    expect(generation).toBeTruthy();
    const release = await core.kernels.lease.acquire(session.id, { kind: 'agent', id: 'run-x', label: "the agent's run" });
    await expect(handlers['kernel.restart']({ sessionId: session.id, language: 'python' }, caller)).rejects.toMatchObject({ code: 'conflict' });
    expect(core.kernels.status(session.id).slots.find((s) => s.language === 'python')!.generation).toBe(generation);
    release();
    expect(await handlers['kernel.restart']({ sessionId: session.id, language: 'python' }, caller)).toMatchObject({ state: 'none' });
  }, 120_000);
});

describe('environment changes under the lease', () => {
  it('a switch, a rollback and the switch after a build each wait for the holder (the build does not), and are listed as waiting meanwhile', async () => {
    const { core } = await start();
    const session = core.ledger.createSession('environments');
    const handlers = createHandlers(core);
    const lease = core.kernels.lease;
    const history = async () => (await handlers['env.list']({ sessionId: session.id }, caller)).history.map((h) => `${h.action}:${h.status}`);
    const waitFor = async (check: () => boolean) => {
      for (let i = 0; i < 3000 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
      expect(check()).toBe(true);
    };
    const settled = (p: unknown) => Promise.race([Promise.resolve(p).then(() => true, () => true), new Promise((r) => setTimeout(() => r(false), 50))]);

    // env.use while a user's cell holds the kernel: it waits, named, and applies once the cell ends.
    let release = await lease.acquire(session.id, { kind: 'user', id: 'uc_1', label: 'your Python cell' });
    const used = handlers['env.use']({ sessionId: session.id, environmentId: 'python-default' }, caller);
    await waitFor(() => lease.view(session.id).waiting.length === 1);
    expect(lease.view(session.id).waiting).toEqual([expect.objectContaining({ kind: 'environment', label: 'an environment switch' })]);
    expect(await settled(used)).toBe(false);
    expect(await history()).toEqual([]);
    release();
    expect((await used).change).toMatchObject({ action: 'use', environmentId: 'python-default' });

    // env.rollback while the agent's run holds it: the same.
    release = await lease.acquire(session.id, { kind: 'agent', id: 'run-1', label: "the agent's run" });
    const rolledBack = handlers['env.rollback']({ sessionId: session.id, language: 'python' }, caller);
    await waitFor(() => lease.view(session.id).waiting.length === 1);
    expect(lease.view(session.id).waiting).toEqual([expect.objectContaining({ kind: 'environment', label: 'an environment rollback' })]);
    expect(await settled(rolledBack)).toBe(false);
    expect(await history()).toEqual(['use:applied']);
    release();
    expect((await rolledBack).change).toMatchObject({ action: 'rollback' });

    // env.create builds while the agent holds the kernel, then waits to switch.
    release = await lease.acquire(session.id, { kind: 'agent', id: 'run-2', label: "the agent's run" });
    const created = handlers['env.create']({ sessionId: session.id, name: 'leased', declaration: 'python-default' }, caller);
    await waitFor(() => lease.view(session.id).waiting.length === 1);
    expect(lease.view(session.id).waiting).toEqual([expect.objectContaining({ kind: 'environment', id: 'new:leased' })]);
    expect(await history()).toEqual(['use:applied', 'rollback:applied']);
    release();
    expect((await created).change).toMatchObject({ action: 'create', status: 'applied', environmentId: 'venv:leased' });
    expect(lease.view(session.id)).toEqual({ holder: null, since: null, waiting: [] });
  }, 240_000);
});

describe('user cells in the session kernel', () => {
  it('records each run as a version of its cell (append-only), and lists a DataFrame in the variables view', async () => {
    const { core } = await start();
    const session = core.ledger.createSession('notebook');
    const handlers = createHandlers(core);
    const first = await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'import pandas as pd\nx = 6 * 7\nprint(x)' }, caller);
    expect(first).toMatchObject({ status: 'ok', stdout: '42\n', userCell: { version: 1, cellKey: expect.stringMatching(/^uc_/) } });
    // Edited and run again: a new version of the same cell; the first stays.
    const second = await handlers['kernel.execute'](
      { sessionId: session.id, language: 'python', code: "df = pd.DataFrame({'residue': ['A', 'C', 'G'], 'count': [10, 6, 12]})\nprint(len(df))", cellKey: first.userCell!.cellKey },
      caller,
    );
    expect(second).toMatchObject({ status: 'ok', stdout: '3\n', userCell: { version: 2, cellKey: first.userCell!.cellKey } });
    const cells = await handlers['notebook.cells']({ sessionId: session.id }, caller);
    expect(cells.map((c) => [c.version, c.code.split('\n')[0], c.status])).toEqual([
      [1, 'import pandas as pd', 'ok'],
      [2, "df = pd.DataFrame({'residue': ['A', 'C', 'G'], 'count': [10, 6, 12]})", 'ok'],
    ]);
    expect(cells[1]!.evidenceId).toMatch(/^ev_/);
    expect(() => core.ledger.db.prepare("UPDATE user_cells SET code = 'x'").run()).toThrow(/append-only/);

    const vars = await handlers['kernel.variables']({ sessionId: session.id, language: 'python' }, caller);
    expect(vars.generation).toBe(second.generation);
    expect(vars.variables).toEqual([
      { name: 'df', type: 'DataFrame', shape: '3 x 2', preview: 'columns: residue, count' },
      { name: 'x', type: 'int', shape: null, preview: '42' },
    ]);
    // The introspection cell left nothing behind, not even a cell number: the next cell is the third.
    await handlers['kernel.variables']({ sessionId: session.id, language: 'python' }, caller);
    const check = await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: "print(sorted(k for k in globals() if 'openai4s' in k))" }, caller);
    expect(check.stdout).toBe('[]\n');
    expect(check.cellNumber).toBe(3);
    // A kernel that is not running is not started to list nothing.
    expect(await handlers['kernel.variables']({ sessionId: session.id, language: 'r' }, caller)).toEqual({ language: 'r', generation: null, variables: [] });
    expect(core.kernels.status(session.id).slots.find((s) => s.language === 'r')?.state).toBe('none');
  }, 120_000);

  it('a value whose preview is slow shows as such, and costs the kernel nothing (its state and SIGALRM handler stay)', async () => {
    const { core } = await start();
    const session = core.ledger.createSession('slow repr');
    const handlers = createHandlers(core);
    const made = await handlers['kernel.execute'](
      { sessionId: session.id, language: 'python', code: 'import time, signal\nclass Slow:\n    def __repr__(self):\n        time.sleep(3)\n        return "slow"\nclass SlowLen(Slow):\n    def __len__(self):\n        time.sleep(3)\n        return 1\nslow = Slow()\nslow_len = SlowLen()\nn = 7\nglobals()["odd\\tname"] = 5\nglobals()[1] = "not a name"' },
      caller,
    );
    expect(made.status).toBe('ok');
    const vars = await handlers['kernel.variables']({ sessionId: session.id, language: 'python' }, caller);
    expect(vars.generation).toBe(made.generation);
    expect(vars.variables).toEqual([
      { name: 'n', type: 'int', shape: null, preview: '7' },
      // A key with a tab does not break the listing's lines; a key that is no string is not listed.
      { name: 'odd name', type: 'int', shape: null, preview: '5' },
      { name: 'slow', type: 'Slow', shape: null, preview: '<preview took too long>' },
      // Slow in len() too: the timer is not swallowed by the shape's own error handling.
      { name: 'slow_len', type: 'SlowLen', shape: null, preview: '<preview took too long>' },
    ]);
    const after = await handlers['kernel.execute']({ sessionId: session.id, language: 'python', code: 'print(n, signal.getsignal(signal.SIGALRM) is signal.SIG_DFL)' }, caller);
    expect(after).toMatchObject({ status: 'ok', stdout: '7 True\n', generation: made.generation });
  }, 120_000);

  it("an R cell: the variables view lists its data.frame (and none of the worker's own names), and the value comes back as a table display", async () => {
    const { core } = await start();
    const session = core.ledger.createSession('r notebook');
    const handlers = createHandlers(core);
    const ran = await handlers['kernel.execute']({ sessionId: session.id, language: 'r', code: 'df <- data.frame(residue = c("A", "C", "G"), count = c(10L, 6L, 12L))\nn <- 42L\ndf' }, caller);
    expect(ran).toMatchObject({ status: 'ok', stdout: '', userCell: { version: 1 } });
    expect(Object.keys(ran.displays[0]!.data)).toEqual(['text/plain', 'application/vnd.openai4s.table+json']);
    const vars = await handlers['kernel.variables']({ sessionId: session.id, language: 'r' }, caller);
    expect(vars.generation).toBe(ran.generation);
    expect(vars.variables).toEqual([
      { name: 'df', type: 'data.frame', shape: '3 x 2', preview: 'columns: residue, count' },
      { name: 'n', type: 'integer', shape: 'len 1', preview: ' int 42' },
    ]);
  }, 120_000);

  it('an R value whose preview is slow shows as such, an active binding is named without running it, and no time limit stays behind', async () => {
    const { core } = await start();
    const session = core.ledger.createSession('slow r str');
    const handlers = createHandlers(core);
    const code = [
      'spin <- function(seconds) { t <- Sys.time(); while (as.numeric(Sys.time() - t, units = "secs") < seconds) NULL; invisible(NULL) }',
      'slow <- structure(list(), class = "slowthing")',
      'str.slowthing <- function(object, ...) { spin(3); cat("slow\\n") }',
      'lengthy <- structure(list(), class = "lengthy")',
      'length.lengthy <- function(x) { spin(3); 1L }',
      'reads <- 0L',
      'makeActiveBinding("counter", function() { reads <<- reads + 1L; reads }, globalenv())',
      'n <- 7L',
    ].join('\n');
    const made = await handlers['kernel.execute']({ sessionId: session.id, language: 'r', code }, caller);
    expect(made.status).toBe('ok');
    const vars = await handlers['kernel.variables']({ sessionId: session.id, language: 'r' }, caller);
    expect(vars.generation).toBe(made.generation);
    expect(vars.variables).toEqual([
      { name: 'counter', type: 'active binding', shape: null, preview: '' },
      { name: 'lengthy', type: 'lengthy', shape: null, preview: '<preview took too long>' },
      { name: 'n', type: 'integer', shape: 'len 1', preview: ' int 7' },
      { name: 'reads', type: 'integer', shape: 'len 1', preview: ' int 0' },
      { name: 'slow', type: 'slowthing', shape: null, preview: '<preview took too long>' },
    ]);
    // The kernel kept its state, the binding was never read, and a cell may run past half a second again.
    const after = await handlers['kernel.execute']({ sessionId: session.id, language: 'r', code: 'spin(1); cat(n, reads, "\\n")' }, caller);
    expect(after).toMatchObject({ status: 'ok', stdout: '7 0 \n', generation: made.generation });
  }, 120_000);

  it("an agent turn waits for the user's cell in progress, sees who holds the kernel, then reads the user's cells in its request", async () => {
    let request = '';
    const { core } = await start([
      (body) => {
        request = JSON.stringify(body);
        return { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] };
      },
    ]);
    const session = core.ledger.createSession('shared kernel');
    const handlers = createHandlers(core);
    const workspace = core.kernels.workspaceFor(session.id);
    // A user cell that runs until the test lets it finish (a file appears in the workspace).
    const code = 'import os, time\nwhile not os.path.exists("go"):\n    time.sleep(0.05)\nsequence_length = 110\nprint("user cell done", sequence_length)';
    const cell = handlers['kernel.execute']({ sessionId: session.id, language: 'python', code }, caller);
    for (let i = 0; i < 600 && core.kernels.lease.view(session.id).holder?.kind !== 'user'; i++) await new Promise((r) => setTimeout(r, 20));
    const run = core.runner.submit({ sessionId: session.id, mutationId: 'm-1', message: 'What is the sequence length?' });
    for (let i = 0; i < 600 && !core.kernels.lease.view(session.id).waiting.length; i++) await new Promise((r) => setTimeout(r, 20));
    const status = await handlers['kernel.status']({ sessionId: session.id }, caller);
    expect(status.lease).toMatchObject({ holder: { kind: 'user', label: 'your Python cell' }, waiting: [{ kind: 'agent', id: run.id, label: "the agent's run" }] });
    expect(request).toBe(''); // the agent's turn has not started
    // The conversation is told who holds the kernel (the queued message says so).
    const replay = await handlers['session.replay']({ sessionId: session.id, afterSeq: 0, limit: 100 }, caller);
    expect(replay.events.map((e) => e.chunk)).toContainEqual(expect.objectContaining({ type: 'data-run-status', data: { runId: run.id, status: 'queued', position: 1, waitingFor: 'your Python cell', waitingForKind: 'user' } }));
    fs.writeFileSync(path.join(workspace, 'go'), '');
    expect((await cell).stdout).toBe('user cell done 110\n');
    expect((await core.runner.result(run.id)).status).toBe('completed');
    expect(request).toContain('NEW user cell (Python, version 1');
    expect(request).toContain('sequence_length = 110');
    expect(request).toContain('user cell done 110');
    // The run gives the kernels back as it ends (just after its result is final).
    for (let i = 0; i < 600 && core.kernels.lease.view(session.id).holder; i++) await new Promise((r) => setTimeout(r, 20));
    expect(core.kernels.lease.view(session.id).holder).toBeNull();
  }, 120_000);
});
