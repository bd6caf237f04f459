import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { ChildData, Envelope, UIMessage } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { AssistantMessage } from '../../src-renderer/src/components/MessageView';
import { DelegationSwitch } from '../../src-renderer/src/components/composer/DelegationSwitch';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { openConversation } from '../../src-renderer/src/store/conversationReducer';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 20: child agents appear nested under the step that started them, with status,
// elapsed time and a stop button while they run; the composer can forbid delegation.

const child = (runId: string, parentRunId: string, depth: number, status: ChildData['status'], extra: Partial<ChildData> = {}): ChildData => ({
  runId,
  parentRunId,
  depth,
  task: `task of ${runId}`,
  status,
  turns: 1,
  evidence: [],
  startedAt: '2026-12-01T08:00:00.000Z',
  ...extra,
});

function message(children: ChildData[]): UIMessage {
  return {
    id: 'run-1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'tool-delegate_task', toolCallId: 'c1', state: 'output-available', input: {}, output: {} },
      ...children.map((data) => ({ type: 'data-child' as const, id: data.runId, data })),
    ],
  } as UIMessage;
}

function setup(answer: (route: string, input: unknown) => Envelope<unknown> = () => ({ ok: true, data: { stopped: [] } })) {
  const api = fakeBridgeApi(answer);
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
  store.setState({ conversation: openConversation('session-1', 1) });
  return { api, store };
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('child agents in the conversation', () => {
  it('nests each child under the run that started it, once, with status, elapsed time and stop on the running ones', async () => {
    const { api, store } = setup();
    const parts = [
      child('a', 'run-1', 1, 'running'),
      child('b', 'run-1', 1, 'completed', { finishedAt: '2026-12-01T08:00:04.000Z', summary: 'BRAF found', evidence: ['ev_1'] }),
      child('a1', 'a', 2, 'budget_exhausted', { finishedAt: '2026-12-01T08:00:02.000Z', failure: 'Ended: the budget is spent.' }),
    ];
    render(
      <StoreProvider store={store}>
        <AssistantMessage message={message(parts)} sessionId="session-1" live={false} canAsk={false} />
      </StoreProvider>,
    );
    // One tree, not one per first-level child.
    expect(screen.getAllByTestId('child-agents')).toHaveLength(1);
    expect(screen.getByTestId('child-agents').textContent).toContain('1 of 2 child agents done');
    const rows = screen.getAllByTestId('child-agent');
    expect(rows.map((r) => r.getAttribute('data-status'))).toEqual(['running', 'budget_exhausted', 'completed']);
    // The grandchild sits inside its parent's row.
    const [first] = rows;
    expect(within(first!).getByText('task of a1')).toBeTruthy();
    expect(within(first!).getByText('Ended: the budget is spent.')).toBeTruthy();
    expect(rows[2]!.textContent).toContain('BRAF found');
    expect(rows[2]!.textContent).toContain('cites 1 evidence record');
    expect(rows[2]!.textContent).toContain('4 s');
    // Only the running child can be stopped; stopping calls delegation.stop for it.
    const stops = screen.getAllByRole('button', { name: 'Stop this child agent and everything it started' });
    expect(stops).toHaveLength(1);
    fireEvent.click(stops[0]!);
    await waitFor(() => expect(api.calls).toEqual([{ route: 'delegation.stop', input: { sessionId: 'session-1', runId: 'a' } }]));
  });

  it('a failed stop is a notice', async () => {
    const { store } = setup(() => ({ ok: false, error: { code: 'not_found', message: 'Child run a is not running in this session.' } }) as Envelope<unknown>);
    render(
      <StoreProvider store={store}>
        <AssistantMessage message={message([child('a', 'run-1', 1, 'running')])} sessionId="session-1" live={false} canAsk={false} />
      </StoreProvider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Stop this child agent and everything it started' }));
    await waitFor(() => expect(JSON.stringify(store.getState().notices)).toContain('Child run a is not running'));
  });

  it('the composer switch forbids delegation for the next message (run.submit carries delegation: false)', async () => {
    const { api, store } = setup((route, input) =>
      route === 'run.submit'
        ? { ok: true, data: { id: 'r1', sessionId: 'session-1', mutationId: (input as { mutationId: string }).mutationId, message: 'hi', status: 'queued', failureCode: null, failureMessage: null, createdAt: '', startedAt: null, finishedAt: null, provider: null, model: null, usage: null, costUsd: null } }
        : { ok: true, data: null },
    );
    render(
      <StoreProvider store={store}>
        <DelegationSwitch />
      </StoreProvider>,
    );
    const box = screen.getByTestId('delegation-switch') as HTMLInputElement;
    expect(box.checked).toBe(true);
    fireEvent.click(box);
    expect(store.getState().delegationAllowed).toBe(false);
    await store.getState().sendMessage('hi', { delegation: false });
    const submit = api.calls.find((c) => c.route === 'run.submit');
    expect(submit?.input).toMatchObject({ sessionId: 'session-1', message: 'hi', delegation: false });
  });

  it("a child's own chunks do not make the window reload the session's runs (they carry the child's run id)", async () => {
    const { api, store } = setup(() => ({ ok: true, data: { session: { id: 'session-1' }, runs: [], lastSeq: 0 } }));
    store.setState({ conversation: { ...openConversation('session-1', 1), status: 'ready' } });
    const childChunk = { type: 'data-child-event', data: { runId: 'child-1', chunk: { type: 'text-delta', id: 't', delta: 'x' } }, transient: true };
    store.getState().receiveStream([{ sessionId: 'session-1', seq: 1, runId: 'child-1', chunk: childChunk as never }]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(api.calls.filter((c) => c.route === 'session.get')).toEqual([]);
    // A chunk of a run the window does not know yet (a new user's run) still does.
    store.getState().receiveStream([{ sessionId: 'session-1', seq: 2, runId: 'run-2', chunk: { type: 'start', messageId: 'run-2' } }]);
    await waitFor(() => expect(api.calls.filter((c) => c.route === 'session.get')).toHaveLength(1));
  });
});
