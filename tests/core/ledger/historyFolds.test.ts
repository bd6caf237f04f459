import { describe, expect, it } from 'vitest';
import { applyChunks, fold, FOLD_VERSION, foldStateAt } from '../../../src-preload/contract/fold';
import type { StreamChunk, UIMessage } from '../../../src-preload/contract/stream';
import { HistoryFolds } from '../../../src-main/core/ledger/historyFolds';
import type { Ledger } from '../../../src-main/core/ledger/ledger';
import { tempLedger, track } from './support';
import { openLedger } from '../../../src-main/core/ledger/ledger';

/** A question and its streamed answer with a tool call: 10 + `deltas` chunks. */
function turn(n: number, deltas = 4, end: 'finish' | 'none' = 'finish'): StreamChunk[] {
  return [
    { type: 'user-message', messageId: `u${n}`, text: `question ${n}` },
    { type: 'start', messageId: `a${n}` },
    { type: 'start-step' },
    { type: 'tool-input-start', toolCallId: `c${n}`, toolName: 'science_search' },
    { type: 'tool-input-delta', toolCallId: `c${n}`, inputTextDelta: '{"query":"IN' },
    { type: 'tool-input-delta', toolCallId: `c${n}`, inputTextDelta: 'S"}' },
    { type: 'text-start', id: 't' },
    ...Array.from({ length: deltas }, (_, i): StreamChunk => ({ type: 'text-delta', id: 't', delta: `${n}.${i} ` })),
    { type: 'text-end', id: 't' },
    { type: 'finish-step' },
    ...(end === 'finish' ? [{ type: 'finish' } as StreamChunk] : []),
  ];
}

function store(ledger: Ledger, sessionId: string, chunks: StreamChunk[]): void {
  for (const chunk of chunks) ledger.events.enqueue(sessionId, null, chunk);
  ledger.events.flush();
}

const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
const storedMessages = (ledger: Ledger, sessionId: string, beforeSeq: number) => {
  const folded = ledger.folds.read(sessionId, beforeSeq);
  return { throughSeq: folded.throughSeq, messages: JSON.parse(folded.messages) as UIMessage[] };
};

describe('stored folds of a session history', () => {
  it('stores every turn that has ended, and the stored turns plus the chunks after them fold to the whole history', async () => {
    const ledger = tempLedger();
    const id = ledger.createSession('long').id;
    // A tool call cut off while its arguments streamed, then a run a crash left open, then a live one.
    const chunks = [...turn(0), ...turn(1, 3, 'none'), ...turn(2, 6, 'none'), ...turn(3)];
    store(ledger, id, chunks);
    expect(ledger.folds.read(id, chunks.length + 1)).toEqual({ sessionId: id, throughSeq: 0, messages: '[]' });
    await ledger.folds.catchUp(id);
    // Turns 0, 1 and 2 have ended (the next one started); turn 3 is stored once turn 4 starts.
    const turn3 = chunks.length - turn(3).length + 1;
    expect(ledger.folds.coveredThrough(id)).toBe(turn3 - 1);
    for (const beforeSeq of [1, 5, turn3 - 1, turn3, chunks.length + 1]) {
      const { throughSeq, messages } = storedMessages(ledger, id, beforeSeq);
      expect(throughSeq).toBeLessThan(beforeSeq);
      const rest = applyChunks(foldStateAt(throughSeq), chunks.slice(throughSeq, beforeSeq - 1)).messages;
      expect(json([...messages, ...rest])).toEqual(json(fold(chunks.slice(0, beforeSeq - 1))));
    }
    expect(storedMessages(ledger, id, turn3).throughSeq).toBe(turn3 - 1);

    // More turns later: the next catch-up starts where the last segment ends, and they join.
    const more = [...turn(4), ...turn(5)];
    store(ledger, id, more);
    await ledger.folds.catchUp(id);
    const all = [...chunks, ...more];
    const last = all.length - turn(5).length;
    expect(ledger.folds.coveredThrough(id)).toBe(last);
    const { throughSeq, messages } = storedMessages(ledger, id, last + 1);
    expect(throughSeq).toBe(last);
    expect(json(messages)).toEqual(json(fold(all.slice(0, last))));
    expect(ledger.db.prepare('SELECT COUNT(*) FROM history_folds WHERE session_id = ?').pluck().get(id)).toBe(5);
  });

  it('folds a long history in steps (a turn of the event loop between them) to the same messages', async () => {
    const ledger = tempLedger();
    const id = ledger.createSession('very long').id;
    const chunks = Array.from({ length: 300 }, (_, n) => turn(n, 10)).flat(); // 6,000 chunks: twelve steps
    store(ledger, id, chunks);
    let turnsOfTheLoop = 0;
    const ticker = setInterval(() => turnsOfTheLoop++, 0);
    await ledger.folds.catchUp(id);
    clearInterval(ticker);
    expect(turnsOfTheLoop).toBeGreaterThan(0);
    const last = chunks.length - turn(0, 10).length;
    const { throughSeq, messages } = storedMessages(ledger, id, chunks.length + 1);
    expect(throughSeq).toBe(last);
    expect(json(messages)).toEqual(json(fold(chunks.slice(0, last))));
  });

  it('one catch-up per session at a time: a call meanwhile makes it go round again, and nothing is stored twice', async () => {
    const ledger = tempLedger();
    const id = ledger.createSession('busy').id;
    store(ledger, id, [...turn(0), ...turn(1)]);
    const first = ledger.folds.catchUp(id);
    store(ledger, id, [...turn(2), ...turn(3)]);
    const second = ledger.folds.catchUp(id);
    expect(ledger.folds.catchingUp).toBe(1);
    await Promise.all([first, second]);
    expect(ledger.folds.catchingUp).toBe(0);
    const chunks = [0, 1, 2, 3].map((n) => turn(n)).flat();
    expect(ledger.folds.coveredThrough(id)).toBe(chunks.length - turn(3).length);
    const spans = ledger.db.prepare('SELECT from_seq, to_seq FROM history_folds WHERE session_id = ? ORDER BY from_seq').raw().all(id) as [number, number][];
    spans.forEach(([from], i) => expect(from).toBe(i ? spans[i - 1]![1] + 1 : 1));
  });

  it('stops at a stored chunk that is not JSON (the chunks stay the truth; opening the session reports the damage) and never throws', async () => {
    const ledger = tempLedger();
    const id = ledger.createSession('damaged').id;
    // Turn 0, a damaged row in it, then turns 1 and 2 (written as rows, seqs 1, 2, ...).
    const texts = [...turn(0).map((c) => JSON.stringify(c)), '{"type":"text-', ...[...turn(1), ...turn(2)].map((c) => JSON.stringify(c))];
    const insert = ledger.db.prepare('INSERT INTO stream_events (session_id, seq, run_id, type, chunk, at) VALUES (?, ?, NULL, ?, ?, 0)');
    texts.forEach((text, i) => insert.run(id, i + 1, text.startsWith('{"type":"user-message"') ? 'user-message' : 'other', text));
    await expect(ledger.folds.catchUp(id)).resolves.toBeUndefined();
    expect(ledger.folds.coveredThrough(id)).toBe(0);
  });

  it('does not read what another fold version stored (and deletes it once it stores its own), nor a deleted session’s', async () => {
    const ledger = tempLedger();
    const id = ledger.createSession('old').id;
    store(ledger, id, [...turn(0), ...turn(1)]);
    await ledger.folds.catchUp(id);
    expect(ledger.folds.read(id, 100).throughSeq).toBeGreaterThan(0);
    const newer = new HistoryFolds(ledger.db, ledger.events, FOLD_VERSION + 1);
    expect(newer.read(id, 100)).toEqual({ sessionId: id, throughSeq: 0, messages: '[]' });
    // A newer version folds the session again and deletes what the older one stored (never read again).
    const versions = () => ledger.db.prepare('SELECT DISTINCT fold_version FROM history_folds WHERE session_id = ?').pluck().all(id);
    expect(versions()).toEqual([FOLD_VERSION]);
    await newer.catchUp(id);
    expect(versions()).toEqual([FOLD_VERSION + 1]);
    expect(newer.read(id, 100).throughSeq).toBeGreaterThan(0);
    const gone = ledger.createSession('gone').id;
    store(ledger, gone, [...turn(0), ...turn(1)]);
    const folding = ledger.folds.catchUp(gone);
    ledger.deleteSession(gone); // while its catch-up waits for its first step: no longer counted, and it stores nothing
    expect(ledger.folds.catchingUp).toBe(0);
    await folding;
    await ledger.folds.catchUp(gone);
    expect(ledger.folds.coveredThrough(gone)).toBe(0);
  });

  it('a run’s history starts from the stored turns after the app starts, and folds only the chunks after them', async () => {
    const first = tempLedger();
    const id = first.createSession('resumed').id;
    const chunks = [0, 1, 2, 3].map((n) => turn(n)).flat();
    store(first, id, chunks);
    await first.folds.catchUp(id);
    first.close();
    const ledger = track(openLedger(first.file));
    const asked: number[] = [];
    const readFrom = ledger.events.readFrom.bind(ledger.events);
    ledger.events.readFrom = (sessionId, afterSeq, limit) => (asked.push(afterSeq ?? 0), readFrom(sessionId, afterSeq, limit));
    const history = ledger.history(id);
    expect(asked).toEqual([chunks.length - turn(3).length]);
    expect(json(history.messages)).toEqual(json(fold(chunks)));
    expect(history.lastSeq).toBe(chunks.length);
  });

  it('told where a user turn just started (run start), folds up to it and no further; a first turn is nothing to fold', async () => {
    const ledger = tempLedger();
    const id = ledger.createSession('run start').id;
    store(ledger, id, turn(0));
    await ledger.folds.catchUp(id, 1);
    expect(ledger.folds.coveredThrough(id)).toBe(0);
    const second = turn(0).length + 1;
    store(ledger, id, [...turn(1), ...turn(2)]);
    await ledger.folds.catchUp(id, second); // as if turn 1's run had just started
    expect(ledger.folds.coveredThrough(id)).toBe(second - 1);
    await ledger.folds.catchUp(id); // without it: up to the last turn's start
    expect(ledger.folds.coveredThrough(id)).toBe(second - 1 + turn(1).length);
  });
});
