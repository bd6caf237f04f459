import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { CellData, Envelope } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { CellCard } from '../../src-renderer/src/components/parts/CellCard';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { openConversation } from '../../src-renderer/src/store/conversationReducer';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// The running-cell view offers to extend the cell's wall-clock limit (issue 13, item 8):
// the control calls kernel.extendCellLimit for the open session and shows the new limit.

const RUNNING: CellData = { language: 'python', code: 'while True:\n    pass', status: 'running', output: [], timeLimitMs: 30 * 60_000 };

function renderCell(cell: CellData, answer: (route: string, input: unknown) => Envelope<unknown>) {
  const api = fakeBridgeApi(answer);
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  store.setState({ conversation: openConversation('session-1', 1) });
  render(
    <StoreProvider store={store}>
      <CellCard cell={cell} sessionId="session-1" />
    </StoreProvider>,
  );
  return api;
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('the time limit of a running cell', () => {
  it('shows the limit and extends it through kernel.extendCellLimit', async () => {
    const api = renderCell(RUNNING, (route) =>
      route === 'kernel.extendCellLimit' ? { ok: true, data: { extended: true, limitMs: 45 * 60_000, endsAt: '2030-01-01T00:00:00Z' } } : { ok: true, data: null },
    );
    expect(screen.getByTestId('cell-limit').textContent).toContain('time limit 30 min');
    fireEvent.click(screen.getByRole('button', { name: '+15 min' }));
    await waitFor(() => expect(screen.getByTestId('cell-limit').textContent).toContain('time limit 45 min'));
    expect(api.calls.filter((c) => c.route === 'kernel.extendCellLimit')).toEqual([
      { route: 'kernel.extendCellLimit', input: { sessionId: 'session-1', language: 'python', extendMs: 15 * 60_000 } },
    ]);
  });

  it('says so when the cell is no longer running', async () => {
    renderCell(RUNNING, () => ({ ok: true, data: { extended: false } }));
    fireEvent.click(screen.getByRole('button', { name: '+15 min' }));
    await waitFor(() => expect(screen.getByTestId('cell-limit').textContent).toContain('no longer running'));
  });

  it('shows no control on a finished cell, and the limit message on one that hit it', () => {
    renderCell(
      { ...RUNNING, status: 'interrupted', timeLimit: { limitMs: 1_800_000, message: 'The cell hit its wall-clock limit of 30 min and was stopped.' } },
      () => ({ ok: true, data: null }),
    );
    expect(screen.queryByTestId('cell-limit')).toBeNull();
    expect(screen.getByTestId('cell-time-limit').textContent).toContain('hit its time limit of 30 min');
  });
});
