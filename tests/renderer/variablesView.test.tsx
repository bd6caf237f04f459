import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellData, Envelope, KernelLeaseOwner, KernelState, KernelStatus, KernelVariables, UIMessageChunk } from '../../src-preload/contract';
import { applyChunks } from '../../src-preload/contract/fold';
import { bridge } from '../../src-renderer/src/api/bridge';
import { KernelPanel } from '../../src-renderer/src/components/panel/KernelPanel';
import { VariablesView } from '../../src-renderer/src/components/panel/VariablesView';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { openConversation } from '../../src-renderer/src/store/conversationReducer';
import { createAppStore, type AppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const SESSION = 'session-v';

/** main: a Python kernel whose state, generation, holder and names the test sets, and an R kernel (not started unless the test starts it). */
function backend() {
  const kernel: { state: KernelState; generation: string | null; holder: KernelLeaseOwner | null; names: string[]; r: { state: KernelState; generation: string | null } } = {
    state: 'idle',
    generation: 'gen-1',
    holder: null,
    names: ['counts'],
    r: { state: 'none', generation: null },
  };
  const status = (): KernelStatus => ({
    sessionId: SESSION,
    lease: { holder: kernel.holder, since: null, waiting: [] },
    slots: [
      { language: 'python', state: kernel.state, generation: kernel.generation, sandbox: { state: 'sandboxed', backend: 'bwrap' }, startedAt: null, cells: 1 },
      { language: 'r', state: kernel.r.state, generation: kernel.r.generation, sandbox: null, startedAt: null, cells: 0 },
    ],
  });
  const variables = (language: 'python' | 'r'): KernelVariables => {
    if (language === 'r') return { language, generation: kernel.r.generation, variables: kernel.r.generation ? [{ name: 'fit', type: 'lm', shape: 'len 12', preview: 'List of 12' }] : [] };
    return { language, generation: kernel.generation, variables: kernel.generation ? kernel.names.map((name) => ({ name, type: 'int', shape: null, preview: '1' })) : [] };
  };
  const answer = (route: string, input?: unknown): Envelope<unknown> => {
    if (route === 'kernel.status') return { ok: true, data: status() };
    if (route === 'kernel.variables') return { ok: true, data: variables((input as { language: 'python' | 'r' }).language) };
    if (route === 'notebook.cells') return { ok: true, data: [] };
    return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
  };
  return { kernel, answer };
}

function renderNotebook() {
  const main = backend();
  const api = fakeBridgeApi(main.answer);
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  store.setState({ conversation: { ...openConversation(SESSION, 1), status: 'ready' } });
  render(
    <StoreProvider store={store}>
      <KernelPanel sessionId={SESSION} />
      <VariablesView sessionId={SESSION} />
    </StoreProvider>,
  );
  const listings = () => api.calls.filter((c) => c.route === 'kernel.variables').length;
  return { api, main, store, listings };
}

/** The session's stream brings chunks (what `session.stream` folds into the conversation). */
function stream(store: AppStore, chunks: UIMessageChunk[]) {
  act(() => {
    const conv = store.getState().conversation!;
    store.setState({ conversation: { ...conv, fold: applyChunks(conv.fold, chunks) } });
  });
}
const cell = (status: CellData['status']): UIMessageChunk => ({ type: 'data-cell', id: 'cell-1', data: { language: 'python', code: 'x = 1', status, output: [] } });
const names = () => screen.queryAllByTestId('variable-row').map((r) => r.dataset.name);

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('variables view', () => {
  it('lists the running kernel’s names when it opens, without a click', async () => {
    const { api, listings } = renderNotebook();
    await waitFor(() => expect(names()).toEqual(['counts']));
    expect(listings()).toBe(1);
    // The listing is a cell: the kernel's status is read again after it, not left at a busy read taken meanwhile.
    await waitFor(() => {
      const routes = api.calls.map((c) => c.route);
      expect(routes.lastIndexOf('kernel.status')).toBeGreaterThan(routes.indexOf('kernel.variables'));
    });
  });

  it('says the kernel is not running, and starts nothing for it', async () => {
    const { main, listings } = renderNotebook();
    main.kernel.state = 'none';
    main.kernel.generation = null;
    fireEvent.click(screen.getByTestId('variables-refresh'));
    await waitFor(() => expect(screen.getByTestId('variables-empty').textContent).toBe('The Python kernel is not running; its variables show here once a cell runs.'));
    expect(listings()).toBeGreaterThanOrEqual(1);
  });

  it('waits for the agent’s turn to end, then reads the names once', async () => {
    const { main, store, listings } = renderNotebook();
    await waitFor(() => expect(listings()).toBe(1));
    // The turn starts and takes the kernels; its cell runs and ends.
    main.kernel.holder = { kind: 'agent', id: 'run-1', label: "the agent's run" };
    main.kernel.state = 'busy';
    stream(store, [{ type: 'start' }, cell('running')]);
    main.kernel.state = 'idle';
    main.kernel.names = ['counts', 'df'];
    stream(store, [cell('ok')]);
    await waitFor(() => expect(store.getState().kernels.data?.slots[0]?.state).toBe('idle'));
    await act(() => store.getState().loadKernels(SESSION));
    // Still the turn's: a listing now would queue behind the whole turn.
    expect(listings()).toBe(1);
    // The turn ends and lets go of the kernels: the view reads the new names by itself.
    main.kernel.holder = null;
    stream(store, [{ type: 'finish' }]);
    await waitFor(() => expect(names()).toEqual(['counts', 'df']));
    expect(listings()).toBe(2);
  });

  it('shows R’s names when only the R kernel runs, until the user picks a language', async () => {
    const { main, store } = renderNotebook();
    main.kernel.state = 'none';
    main.kernel.generation = null;
    main.kernel.r = { state: 'idle', generation: 'gen-r' };
    await act(() => store.getState().loadKernels(SESSION));
    await waitFor(() => expect(names()).toEqual(['fit']));
    expect((screen.getByTestId('variables-language') as HTMLSelectElement).value).toBe('r');
    // Picked by hand: it stays, whatever runs.
    fireEvent.change(screen.getByTestId('variables-language'), { target: { value: 'python' } });
    await waitFor(() => expect(screen.getByTestId('variables-empty').textContent).toBe('The Python kernel is not running; its variables show here once a cell runs.'));
    main.kernel.state = 'idle';
    main.kernel.generation = 'gen-1';
    await act(() => store.getState().loadKernels(SESSION));
    await waitFor(() => expect(names()).toEqual(['counts']));
    expect((screen.getByTestId('variables-language') as HTMLSelectElement).value).toBe('python');
  });

  it('keeps the names on screen while it reads them again', async () => {
    const { api, main, store } = renderNotebook();
    await waitFor(() => expect(names()).toEqual(['counts']));
    let answer!: () => void;
    const held = new Promise<void>((resolve) => (answer = resolve));
    const invoke = api.invoke.bind(api);
    api.invoke = async (route, input) => {
      if (route === 'kernel.variables') await held;
      return invoke(route, input);
    };
    main.kernel.names = ['counts', 'df'];
    let reading!: Promise<void>;
    act(() => {
      reading = store.getState().loadVariables(SESSION, 'python');
    });
    expect(screen.getByTestId('variables-view').dataset.status).toBe('loading');
    expect(names()).toEqual(['counts']);
    await act(async () => {
      answer();
      await reading;
    });
    expect(names()).toEqual(['counts', 'df']);
  });

  it('reads again after a restart, and not again while nothing changed', async () => {
    const { main, store, listings } = renderNotebook();
    await waitFor(() => expect(listings()).toBe(1));
    await act(() => store.getState().loadKernels(SESSION));
    expect(listings()).toBe(1);
    main.kernel.generation = 'gen-2';
    main.kernel.names = [];
    await act(() => store.getState().loadKernels(SESSION));
    await waitFor(() => expect(screen.getByTestId('variables-empty').textContent).toBe('No variables yet.'));
    expect(listings()).toBe(2);
  });
});
