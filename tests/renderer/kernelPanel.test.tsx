import { act, cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { CellData, Envelope, KernelLeaseOwner, KernelState, KernelStatus } from '../../src-preload/contract';
import { applyChunks } from '../../src-preload/contract/fold';
import { bridge } from '../../src-renderer/src/api/bridge';
import { KERNEL_POLL_MS, KernelPanel } from '../../src-renderer/src/components/panel/KernelPanel';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { openConversation } from '../../src-renderer/src/store/conversationReducer';
import { createAppStore, type AppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

const SESSION = 'session-k';

/** main's answer to kernel.status: Python with the state the test sets, R never started. */
function kernelBackend() {
  const state: { python: KernelState; generation: string; holder: KernelLeaseOwner | null } = { python: 'busy', generation: 'gen-aaaaaaaa1111', holder: null };
  const status = (): KernelStatus => ({
    sessionId: SESSION,
    lease: { holder: state.holder, since: null, waiting: [] },
    slots: [
      { language: 'python', state: state.python, generation: state.generation, sandbox: { state: 'sandboxed', backend: 'bwrap' }, startedAt: '2026-01-01T00:00:00.000Z', cells: 2 },
      { language: 'r', state: 'none', generation: null, sandbox: null, startedAt: null, cells: 0 },
    ],
  });
  const answer = (route: string): Envelope<unknown> => {
    switch (route) {
      case 'kernel.status':
        return { ok: true, data: status() };
      case 'kernel.interrupt':
        state.python = 'idle';
        return { ok: true, data: { interrupted: true } };
      case 'kernel.restart':
        state.generation = 'gen-bbbbbbbb2222';
        state.python = 'idle';
        return { ok: true, data: status().slots[0] };
      default:
        return { ok: false, error: { code: 'internal', message: `no ${route} in this test` } };
    }
  };
  return { state, answer };
}

function renderPanel() {
  const backend = kernelBackend();
  const api = fakeBridgeApi(backend.answer);
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  store.setState({ conversation: { ...openConversation(SESSION, 1), status: 'ready' } });
  const view = render(
    <StoreProvider store={store}>
      <KernelPanel sessionId={SESSION} />
    </StoreProvider>,
  );
  const statusCalls = () => api.calls.filter((c) => c.route === 'kernel.status').length;
  return { api, store, view, backend, statusCalls };
}

const row = (language: string) => screen.getAllByTestId('kernel-row').find((r) => r.dataset.language === language)!;

/** The session's stream brings a cell part (what `session.stream` folds into the conversation). */
function streamCell(store: AppStore, status: CellData['status']) {
  const cell: CellData = { language: 'python', code: 'print(1)', status, output: [] };
  act(() => {
    const conv = store.getState().conversation!;
    const fold = applyChunks(conv.fold, [
      ...(conv.fold.messages.length ? [] : [{ type: 'start' as const }]),
      { type: 'data-cell', id: 'cell-1', data: cell },
    ]);
    store.setState({ conversation: { ...conv, fold } });
  });
}

let visibility: DocumentVisibilityState = 'visible';
beforeEach(() => {
  visibility = 'visible';
  Object.defineProperty(document, 'visibilityState', { configurable: true, get: () => visibility });
});
afterEach(() => {
  vi.useRealTimers();
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
  delete (document as unknown as Record<string, unknown>).visibilityState;
});

describe('kernel panel', () => {
  it('shows each kernel’s state, generation and sandbox', async () => {
    renderPanel();
    await waitFor(() => expect(screen.getAllByTestId('kernel-row')).toHaveLength(2));
    const python = row('python');
    expect(python.dataset.state).toBe('busy');
    expect(within(python).getByTestId('kernel-state').textContent).toBe('busy');
    expect(within(python).getByTestId('kernel-generation').textContent).toBe('Kernel generation gen-aaaa');
    expect(within(python).getByTestId('kernel-sandbox').textContent).toBe('sandboxed (bwrap)');
    const r = row('r');
    expect(within(r).getByTestId('kernel-state').textContent).toBe('not started');
    expect(within(r).queryByTestId('kernel-generation')).toBeNull();
    // Nothing to interrupt or restart in a kernel that never started.
    expect((within(r).getByRole('button', { name: 'Interrupt' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(r).getByRole('button', { name: 'Restart' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('interrupts a busy kernel and restarts after confirming, then shows the new status', async () => {
    const { api } = renderPanel();
    await waitFor(() => expect(row('python').dataset.state).toBe('busy'));
    fireEvent.click(within(row('python')).getByRole('button', { name: 'Interrupt' }));
    await waitFor(() => expect(row('python').dataset.state).toBe('idle'));
    expect((within(row('python')).getByRole('button', { name: 'Interrupt' }) as HTMLButtonElement).disabled).toBe(true);

    const confirm = vi.spyOn(window, 'confirm').mockReturnValueOnce(false).mockReturnValueOnce(true);
    fireEvent.click(within(row('python')).getByRole('button', { name: 'Restart' }));
    expect(confirm).toHaveBeenCalledWith('Restart the Python kernel? Its variables are lost; files in the workspace stay.');
    fireEvent.click(within(row('python')).getByRole('button', { name: 'Restart' }));
    await waitFor(() => expect(within(row('python')).getByTestId('kernel-generation').textContent).toBe('Kernel generation gen-bbbb'));
    confirm.mockRestore();
    expect(api.calls.filter((c) => c.route !== 'kernel.status')).toEqual([
      { route: 'kernel.interrupt', input: { sessionId: SESSION, language: 'python' } },
      { route: 'kernel.restart', input: { sessionId: SESSION, language: 'python' } },
    ]);
  });

  it('offers no Restart while the agent’s run holds the kernel, and says why', async () => {
    const { backend, store } = renderPanel();
    backend.state.holder = { kind: 'agent', id: 'run-1', label: "the agent's run" };
    await act(() => store.getState().loadKernels(SESSION));
    const restart = within(row('python')).getByTestId('kernel-restart') as HTMLButtonElement;
    expect(restart.disabled).toBe(true);
    expect(restart.title).toBe('In use by the agent’s run: restart once it is done');
    // Interrupt stays: it is how the user stops what holds the kernel.
    expect((within(row('python')).getByRole('button', { name: 'Interrupt' }) as HTMLButtonElement).disabled).toBe(false);
    backend.state.holder = null;
    await act(() => store.getState().loadKernels(SESSION));
    expect((within(row('python')).getByTestId('kernel-restart') as HTMLButtonElement).disabled).toBe(false);
  });

  it('asks again when a cell starts or ends in the session stream', async () => {
    const { store, backend, statusCalls } = renderPanel();
    await waitFor(() => expect(statusCalls()).toBe(1));
    backend.state.python = 'busy';
    streamCell(store, 'running');
    await waitFor(() => expect(statusCalls()).toBe(2));
    backend.state.python = 'idle';
    streamCell(store, 'ok');
    await waitFor(() => expect(statusCalls()).toBe(3));
    await waitFor(() => expect(row('python').dataset.state).toBe('idle'));
  });

  it('polls only while shown and the window is visible', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    const { view, statusCalls } = renderPanel();
    await waitFor(() => expect(statusCalls()).toBe(1));
    act(() => vi.advanceTimersByTime(KERNEL_POLL_MS));
    await waitFor(() => expect(statusCalls()).toBe(2));
    visibility = 'hidden';
    act(() => vi.advanceTimersByTime(3 * KERNEL_POLL_MS));
    expect(statusCalls()).toBe(2);
    visibility = 'visible';
    view.unmount();
    act(() => vi.advanceTimersByTime(3 * KERNEL_POLL_MS));
    expect(statusCalls()).toBe(2);
  });
});
