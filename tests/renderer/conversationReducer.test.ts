import { describe, expect, it } from 'vitest';
import { fold } from '../../src-preload/contract/fold';
import type { RunRecord, SessionStreamEvent, StreamChunk } from '../../src-preload/contract';
import {
  activeRun,
  conversationReducer,
  openConversation,
  queuedRuns,
  type ConversationState,
} from '../../src-renderer/src/store/conversationReducer';

const S = 'sess-1';

function run(id: string, status: RunRecord['status'], message = `message ${id}`): RunRecord {
  return {
    id,
    sessionId: S,
    mutationId: `m-${id}`,
    message,
    status,
    failureCode: null,
    failureMessage: null,
    createdAt: '2025-01-01T00:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    provider: null,
    model: null,
    usage: null,
    costUsd: null,
  };
}

/** A whole run as the runner writes it: user turn, start, reasoning, text, finish metadata. */
function runChunks(runId: string, text: string): StreamChunk[] {
  return [
    { type: 'user-message', messageId: `user-${runId}`, text: `question ${runId}` },
    { type: 'start', messageId: runId, messageMetadata: { provider: 'openai', model: 'm' } },
    { type: 'start-step' },
    { type: 'reasoning-start', id: 'r1' },
    { type: 'reasoning-delta', id: 'r1', delta: 'thinking' },
    { type: 'reasoning-end', id: 'r1' },
    { type: 'text-start', id: 't1' },
    ...[...text].map((c): StreamChunk => ({ type: 'text-delta', id: 't1', delta: c })),
    { type: 'text-end', id: 't1' },
    { type: 'finish-step' },
    {
      type: 'message-metadata',
      messageMetadata: {
        run: { status: 'completed', failureCode: null, failureMessage: null, turns: 1 },
      },
    },
    { type: 'finish', finishReason: 'stop' },
  ];
}

function events(chunks: StreamChunk[], runId: string, from = 1): SessionStreamEvent[] {
  return chunks.map((chunk, i) => ({ sessionId: S, seq: from + i, runId, chunk }));
}

function ready(runs: RunRecord[] = []): ConversationState {
  const opened = openConversation(S, 1);
  return conversationReducer(opened, { type: 'conv/loaded', loadId: 1, events: [], runs });
}

describe('conversation reducer', () => {
  it('folds live events exactly as history folds the same chunks, whatever the batching', () => {
    const first = runChunks('r1', 'Hello **world**');
    const chunks = [...first, ...runChunks('r2', 'Again')];
    const all = events(first, 'r1').concat(
      events(chunks.slice(first.length), 'r2', first.length + 1),
    );
    let state = ready([run('r1', 'queued'), run('r2', 'queued')]);
    for (let i = 0; i < all.length; i += 3)
      state = conversationReducer(state, { type: 'conv/events', events: all.slice(i, i + 3) });
    expect(state.fold.messages).toEqual(fold(chunks));
    expect(state.lastSeq).toBe(chunks.length);
    expect(state.runs.map((r) => r.status)).toEqual(['completed', 'completed']);
  });

  it('skips duplicates and stops at a gap until the replay fills it', () => {
    const all = events(runChunks('r1', 'abc'), 'r1');
    let state = ready([run('r1', 'processing')]);
    state = conversationReducer(state, { type: 'conv/events', events: all.slice(0, 5) });
    state = conversationReducer(state, { type: 'conv/events', events: all.slice(3, 6) }); // 4, 5 again, then 6
    expect(state.lastSeq).toBe(6);
    // 7 and 8 are lost; 9.. arrive.
    state = conversationReducer(state, { type: 'conv/events', events: all.slice(8, 10) });
    expect(state.gapAfter).toBe(6);
    expect(state.lastSeq).toBe(6);
    // More live events wait behind the gap.
    state = conversationReducer(state, { type: 'conv/events', events: all.slice(10) });
    expect(state.backlog.length).toBe(all.length - 8);
    // The replay brings 7.. (overlapping what is in the backlog).
    state = conversationReducer(state, { type: 'conv/replayed', events: all.slice(6, 12) });
    expect(state.gapAfter).toBeNull();
    expect(state.backlog).toEqual([]);
    expect(state.lastSeq).toBe(all.length);
    expect(state.fold.messages).toEqual(fold(all.map((e) => e.chunk)));
  });

  it('keeps events that arrive while loading and applies them after the loaded log', () => {
    const all = events(runChunks('r1', 'xyz'), 'r1');
    let state = openConversation(S, 7);
    state = conversationReducer(state, { type: 'conv/events', events: all.slice(4, 9) });
    expect(state.fold.messages).toEqual([]);
    state = conversationReducer(state, {
      type: 'conv/loaded',
      loadId: 7,
      events: all.slice(0, 6),
      runs: [run('r1', 'processing')],
    });
    expect(state.lastSeq).toBe(9);
    expect(state.fold.messages).toEqual(fold(all.slice(0, 9).map((e) => e.chunk)));
    // An answer to an older load is ignored.
    expect(
      conversationReducer(state, { type: 'conv/loaded', loadId: 6, events: [], runs: [] }),
    ).toBe(state);
  });

  it('a session opened at its end shows its last turns at once; the earlier ones go in front, and live events keep flowing meanwhile', () => {
    // Three runs, the last one still streaming; one message named by position (a start without an id).
    const r1 = runChunks('r1', 'first');
    const r2: StreamChunk[] = [{ type: 'user-message', messageId: 'user-r2', text: 'q2' }, { type: 'start' }, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'unnamed' }, { type: 'text-end', id: 't' }, { type: 'finish' }];
    const r3 = runChunks('r3', 'third answer');
    const all = [...events(r1, 'r1'), ...events(r2, 'r2', r1.length + 1), ...events(r3, 'r3', r1.length + r2.length + 1)];
    const fromSeq = r1.length + 1; // the tail starts at r2's user turn
    const streamedUntil = all.length - 4;
    let state = conversationReducer(openConversation(S, 3), {
      type: 'conv/loaded',
      loadId: 3,
      events: all.slice(fromSeq - 1, streamedUntil),
      runs: [run('r1', 'completed'), run('r2', 'completed'), run('r3', 'processing')],
      fromSeq,
    });
    expect(state.earlierBefore).toBe(fromSeq);
    expect(state.fold.messages.map((m) => m.id)).toEqual(['user-r2', `msg-${r1.length + 1}`, 'user-r3', 'r3']);
    // The run goes on while the earlier part loads.
    state = conversationReducer(state, { type: 'conv/events', events: all.slice(streamedUntil) });
    state = conversationReducer(state, { type: 'conv/earlier', loadId: 3, messages: fold(all.slice(0, fromSeq - 1).map((e) => e.chunk)) });
    expect(state.earlierBefore).toBeNull();
    expect(state.lastSeq).toBe(all.length);
    // Exactly what opening from the start gives.
    expect(state.fold).toEqual(conversationReducer(openConversation(S, 1), { type: 'conv/loaded', loadId: 1, events: all, runs: [] }).fold);
    // An answer to an older load is ignored.
    expect(conversationReducer({ ...state, earlierBefore: 5 }, { type: 'conv/earlier', loadId: 2, messages: [] }).earlierBefore).toBe(5);
  });

  it('ignores other sessions’ events', () => {
    const state = ready();
    const other = events(runChunks('x', 'a'), 'x').map((e) => ({ ...e, sessionId: 'other' }));
    expect(conversationReducer(state, { type: 'conv/events', events: other })).toBe(state);
  });

  it('a queued run waiting for the kernel knows who holds it until it starts, also when opened from history', () => {
    const waiting: StreamChunk = { type: 'data-run-status', transient: true, data: { runId: 'r1', status: 'queued', position: 1, waitingFor: 'your Python cell', waitingForKind: 'user' } } as StreamChunk;
    let state = ready([run('r1', 'queued')]);
    state = conversationReducer(state, { type: 'conv/events', events: events([waiting], 'r1') });
    expect(queuedRuns(state).map((r) => r.id)).toEqual(['r1']);
    expect(state.kernelWaits).toEqual({ r1: 'user' });
    // The same stream read from the ledger (a reload while it waits) says the same.
    const reloaded = conversationReducer(openConversation(S, 2), { type: 'conv/loaded', loadId: 2, events: events([waiting], 'r1'), runs: [run('r1', 'queued')] });
    expect(reloaded.kernelWaits).toEqual({ r1: 'user' });
    // The cell ended: the run starts, and waits for nothing.
    state = conversationReducer(state, { type: 'conv/events', events: events(runChunks('r1', 'ok').slice(0, 2), 'r1', 2) });
    expect(state.kernelWaits).toEqual({});
    expect(queuedRuns(state)).toEqual([]);
  });

  it('shows a submitted run as queued until its user turn enters the stream', () => {
    const first = runChunks('r1', 'first');
    let state = ready([run('r1', 'processing')]);
    state = conversationReducer(state, {
      type: 'conv/events',
      events: events(first.slice(0, 5), 'r1'),
    });
    state = conversationReducer(state, {
      type: 'conv/submitted',
      run: run('r2', 'queued', 'next please'),
    });
    expect(queuedRuns(state).map((r) => r.message)).toEqual(['next please']);
    expect(activeRun(state)?.id).toBe('r1');
    state = conversationReducer(state, {
      type: 'conv/events',
      events: events(first.slice(5), 'r1', 6),
    });
    expect(activeRun(state)).toBeNull();
    // Submitting twice (same mutation) answers the same run: still one.
    state = conversationReducer(state, {
      type: 'conv/submitted',
      run: run('r2', 'queued', 'next please'),
    });
    expect(state.runs).toHaveLength(2);
    state = conversationReducer(state, {
      type: 'conv/events',
      events: events(runChunks('r2', 'ok').slice(0, 2), 'r2', first.length + 1),
    });
    expect(queuedRuns(state)).toEqual([]);
    expect(activeRun(state)?.id).toBe('r2');
  });

  it('takes the stream’s word over a late run.submit answer', () => {
    let state = ready();
    state = conversationReducer(state, {
      type: 'conv/events',
      events: events(runChunks('r1', 'done'), 'r1'),
    });
    state = conversationReducer(state, { type: 'conv/submitted', run: run('r1', 'queued') });
    expect(state.runs[0]!.status).toBe('completed');
    expect(queuedRuns(state)).toEqual([]);
    expect(activeRun(state)).toBeNull();
  });
});
