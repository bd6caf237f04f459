/**
 * The Notebook tab's user cells (issue 25) against a fake main: a new cell becomes the
 * recorded cell its run created, an edit not run yet survives a reload, Run all stops at
 * the first failing cell, and the bar says who holds the kernel while a cell waits.
 */
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, KernelCellResult, KernelLanguage, KernelStatus, UserCellRecord } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { UserNotebook } from '../../src-renderer/src/components/panel/UserNotebook';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const SESSION = 'session-notebook';

function backend(options: { holdExecute?: boolean } = {}) {
  const versions: UserCellRecord[] = [];
  const executed: { code: string; cellKey?: string }[] = [];
  let keys = 0;
  const lease: KernelStatus['lease'] = { holder: { kind: 'agent', id: 'run-1', label: "the agent's run" }, since: null, waiting: [] };
  let status: KernelStatus['lease'] = lease;
  const answer = (route: string, input: unknown): Envelope<unknown> | Promise<Envelope<unknown>> => {
    if (route === 'notebook.cells') return { ok: true, data: versions };
    if (route === 'kernel.status') return { ok: true, data: { sessionId: SESSION, slots: [], lease: status } };
    if (route === 'kernel.execute') {
      const { code, cellKey, language } = input as { code: string; cellKey?: string; language: KernelLanguage };
      executed.push({ code, ...(cellKey ? { cellKey } : {}) });
      const key = cellKey ?? `uc_${++keys}`;
      const result: KernelCellResult = {
        sessionId: SESSION, language, generation: 'gen-1', cellId: `c${executed.length}`, cellNumber: executed.length,
        status: code.includes('raise') ? 'error' : 'ok', stdout: `ran ${executed.length}\n`, stderr: '', displays: [], truncated: false,
        sandbox: { state: 'sandboxed', backend: 'bwrap' },
      };
      const version = versions.filter((v) => v.cellKey === key).length + 1;
      const finish = () => {
        versions.push({ id: `v${versions.length}`, sessionId: SESSION, cellKey: key, version, language, code, status: result.status, generation: 'gen-1', result, evidenceId: null, hostCalls: [], startedAt: 't', finishedAt: `t${versions.length}` });
        return { ok: true as const, data: { ...result, userCell: { id: `v${versions.length}`, cellKey: key, version } } };
      };
      return options.holdExecute ? new Promise(() => {}) : finish();
    }
    return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
  };
  /** The lease kernel.status answers from now on (the agent's run takes the kernel). */
  const setLease = (next: KernelStatus['lease']) => (status = next);
  return { versions, executed, answer, setLease };
}

function setup(options: { holdExecute?: boolean } = {}) {
  const fake = backend(options);
  window.openai4s = fakeBridgeApi(fake.answer);
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  return { fake, store };
}

afterEach(cleanup);

describe('the user notebook slice', () => {
  it('a new cell becomes its recorded cell; a re-run is a new version of it; an unsaved edit survives a reload', async () => {
    const { fake, store } = setup();
    const s = () => store.getState();
    await s().loadNotebook(SESSION);
    s().addNotebookCell(SESSION, 'python');
    const draftKey = s().notebook.entries[0]!.key;
    s().editNotebookCell(draftKey, 'x = 1');
    await s().runNotebookCell(SESSION, draftKey);
    expect(s().notebook.entries.map((e) => [e.key, e.cellKey, e.last?.status])).toEqual([['uc_1', 'uc_1', 'ok']]);
    s().editNotebookCell('uc_1', 'x = 2');
    await s().runNotebookCell(SESSION, 'uc_1');
    expect(fake.executed).toEqual([{ code: 'x = 1' }, { code: 'x = 2', cellKey: 'uc_1' }]);
    expect(s().notebook.versions.map((v) => [v.cellKey, v.version])).toEqual([['uc_1', 1], ['uc_1', 2]]);
    s().editNotebookCell('uc_1', 'x = 3 # not run yet');
    await s().loadNotebook(SESSION);
    expect(s().notebook.entries[0]!.draft).toBe('x = 3 # not run yet');
  });

  it('Run all runs the cells from the top and stops at the first that fails', async () => {
    const { fake, store } = setup();
    const s = () => store.getState();
    await s().loadNotebook(SESSION);
    for (const code of ['a = 1', 'raise ValueError("bad")', 'b = 2']) {
      s().addNotebookCell(SESSION, 'python');
      s().editNotebookCell(s().notebook.entries.at(-1)!.key, code);
    }
    await s().runAllNotebookCells(SESSION);
    expect(fake.executed.map((e) => e.code)).toEqual(['a = 1', 'raise ValueError("bad")']);
    expect(s().notebook.runningAll).toBe(false);
  });

  it('Run from here (the button on a cell) runs that cell and the ones below it, not the ones above', async () => {
    const { fake, store } = setup();
    render(
      <StoreProvider store={store}>
        <UserNotebook sessionId={SESSION} />
      </StoreProvider>,
    );
    const s = () => store.getState();
    await s().loadNotebook(SESSION);
    for (const code of ['a = 1', 'b = 2', 'c = 3']) {
      s().addNotebookCell(SESSION, 'python');
      s().editNotebookCell(s().notebook.entries.at(-1)!.key, code);
    }
    const second = (await screen.findAllByTestId('user-cell'))[1]!;
    fireEvent.click(within(second).getByTestId('user-cell-run-from'));
    await waitFor(() => expect(fake.executed.map((e) => e.code)).toEqual(['b = 2', 'c = 3']));
    await waitFor(() => expect(s().notebook.runningAll).toBe(false));
  });

  it('a cell waiting for the kernel says who holds it, asked when the cell is sent', async () => {
    const { store, fake } = setup({ holdExecute: true });
    fake.setLease({ holder: null, since: null, waiting: [] });
    render(
      <StoreProvider store={store}>
        <UserNotebook sessionId={SESSION} />
      </StoreProvider>,
    );
    const s = () => store.getState();
    await s().loadNotebook(SESSION);
    await s().loadKernels(SESSION);
    expect(s().kernels.data?.lease?.holder).toBeNull();
    // The agent's run took the kernel after the panel last asked.
    fake.setLease({ holder: { kind: 'agent', id: 'run-1', label: "the agent's run" }, since: null, waiting: [] });
    s().addNotebookCell(SESSION, 'python');
    s().editNotebookCell(s().notebook.entries[0]!.key, 'print(1)');
    void s().runNotebookCell(SESSION, s().notebook.entries[0]!.key);
    expect((await screen.findByTestId('notebook-waiting')).textContent).toBe('Waiting for the kernel: the agent’s run holds it.');
    // Interrupt would stop the agent's cell (kernel.interrupt stops whatever runs), not this waiting one.
    expect(screen.getByTestId('user-cell').getAttribute('data-status')).toBe('running');
    expect(screen.queryByTestId('user-cell-interrupt')).toBeNull();
  });
});
