import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, MemoryRecord, ThinkingStepData } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { MemoryTab } from '../../src-renderer/src/components/memory/MemoryTab';
import { PlanTab } from '../../src-renderer/src/components/plan/PlanTab';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 19: the user sees, edits and deletes memories (the agent's marked as such); the plan shows as a checklist.
const AT = '2026-01-01T00:00:00.000Z';

/** main's memory routes over an in-memory list; a text with "sk-" is refused as main refuses it. */
function backend(initial: MemoryRecord[]) {
  const memories = [...initial];
  let next = 1;
  const api = fakeBridgeApi((route, input): Envelope<unknown> => {
    const i = input as { id?: string; text?: string; scope?: 'session' | 'data_root' };
    switch (route) {
      case 'memory.list':
        return { ok: true, data: { memories: [...memories] } };
      case 'memory.add': {
        if (i.text!.includes('sk-')) return { ok: false, error: { code: 'invalid_input', message: 'This memory looks like it contains a secret.' } };
        const m: MemoryRecord = { id: `mem_new${String(next++).padStart(8, '0')}`, text: i.text!, scope: i.scope!, sessionId: null, origin: 'user', createdAt: AT, updatedAt: AT, editedBy: null };
        memories.push(m);
        return { ok: true, data: m };
      }
      case 'memory.edit': {
        const m = memories.find((x) => x.id === i.id)!;
        Object.assign(m, { text: i.text, editedBy: 'user' });
        return { ok: true, data: m };
      }
      case 'memory.forget':
        memories.splice(memories.findIndex((x) => x.id === i.id), 1);
        return { ok: true, data: { id: i.id } };
      default:
        return { ok: false, error: { code: 'unknown_route', message: route } };
    }
  });
  return { api, memories };
}

function renderWith(node: React.ReactNode, api: ReturnType<typeof fakeBridgeApi>) {
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  render(<StoreProvider store={store}>{node}</StoreProvider>);
  return store;
}

afterEach(() => cleanup());

describe('Memory tab', () => {
  const agents: MemoryRecord = { id: 'mem_agent0000001', text: 'The user studies human insulin.', scope: 'data_root', sessionId: 's1', origin: 'agent', createdAt: AT, updatedAt: AT, editedBy: null };

  it('lists memories with the agent’s marked, and adds, edits and deletes them', async () => {
    const { api, memories } = backend([agents]);
    renderWith(<MemoryTab />, api);
    const item = await screen.findByTestId('memory-item');
    expect(item.getAttribute('data-origin')).toBe('agent');
    expect(within(item).getByTestId('memory-origin').textContent).toBe('agent');
    expect(within(item).getByText('all sessions')).toBeTruthy();

    fireEvent.change(screen.getByTestId('memory-add-input'), { target: { value: 'Plots in SI units.' } });
    fireEvent.click(screen.getByTestId('memory-add'));
    await waitFor(() => expect(screen.getAllByTestId('memory-item')).toHaveLength(2));
    expect(api.calls.find((c) => c.route === 'memory.add')?.input).toEqual({ text: 'Plots in SI units.', scope: 'data_root' });
    expect(within(screen.getAllByTestId('memory-item')[1]!).getByTestId('memory-origin').textContent).toBe('you');

    fireEvent.click(within(screen.getAllByTestId('memory-item')[0]!).getByTestId('memory-edit'));
    fireEvent.change(screen.getByTestId('memory-edit-input'), { target: { value: 'The user studies mouse insulin.' } });
    fireEvent.click(screen.getByTestId('memory-save'));
    // Saved when the editor closes: the textarea holds the same words before the save is done.
    await waitFor(() => expect(screen.queryByTestId('memory-edit-input')).toBeNull());
    expect(within(screen.getAllByTestId('memory-item')[0]!).getByText('The user studies mouse insulin.').tagName).toBe('P');
    expect(api.calls.find((c) => c.route === 'memory.edit')?.input).toEqual({ id: agents.id, text: 'The user studies mouse insulin.' });
    expect(within(screen.getAllByTestId('memory-item')[0]!).getByText('edited')).toBeTruthy();

    fireEvent.click(within(screen.getAllByTestId('memory-item')[0]!).getByTestId('memory-delete'));
    await waitFor(() => expect(screen.getAllByTestId('memory-item')).toHaveLength(1));
    expect(memories.map((m) => m.text)).toEqual(['Plots in SI units.']);
  });

  it('shows why a memory was refused and keeps the draft', async () => {
    const { api } = backend([]);
    renderWith(<MemoryTab />, api);
    await screen.findByTestId('memory-empty');
    fireEvent.change(screen.getByTestId('memory-add-input'), { target: { value: 'key sk-abcdefghijklmnopqrstu' } });
    fireEvent.click(screen.getByTestId('memory-add'));
    expect((await screen.findByTestId('memory-add-error')).textContent).toMatch(/secret/);
    expect((screen.getByTestId('memory-add-input') as HTMLTextAreaElement).value).toBe('key sk-abcdefghijklmnopqrstu');
  });
});

describe('Plan tab', () => {
  it('shows the session plan from plan.get as a checklist', async () => {
    const steps: ThinkingStepData[] = [
      { id: 'plan-1', title: 'Search UniProt', status: 'completed', kind: 'plan', startedAt: AT, finishedAt: '2026-01-01T00:00:04.000Z' },
      { id: 'plan-2', title: 'Fit the curve', status: 'in_progress', kind: 'plan', startedAt: AT },
    ];
    const api = fakeBridgeApi((route, input): Envelope<unknown> => {
      if (route === 'plan.get') return { ok: true, data: { sessionId: (input as { sessionId: string }).sessionId, steps } };
      if (route === 'session.open') return { ok: true, data: { session: { id: 's1', title: 't', createdAt: AT, updatedAt: AT, revision: 1 }, runs: [], lastSeq: 0, fromSeq: 1, events: [] } };
      return { ok: true, data: null };
    });
    const store = renderWith(<PlanTab />, api);
    expect(screen.getByTestId('plan-empty')).toBeTruthy();
    await store.getState().openSession('s1');
    const lines = await screen.findAllByTestId('thinking-step');
    expect(lines.map((l) => l.getAttribute('data-status'))).toEqual(['completed', 'in_progress']);
    expect(screen.getByTestId('plan-now').textContent).toContain('Nothing is running.');
  });
});
