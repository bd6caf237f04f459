import { describe, expect, it } from 'vitest';
import { MERGED_DELTA_MAX_CHARS } from '../../../src-main/core/ledger/eventLog';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { tempLedger, track } from './support';

describe('stream_events: the append-only log', () => {
  it('refuses UPDATE and DELETE through its triggers', () => {
    const l = tempLedger();
    const s = l.createSession();
    l.events.appendSync(s.id, null, { type: 'start' });
    expect(() => l.db.prepare(`UPDATE stream_events SET chunk = '{}'`).run()).toThrow(/append-only: UPDATE refused/);
    expect(() => l.db.prepare('DELETE FROM stream_events').run()).toThrow(/append-only: DELETE refused/);
    expect(l.events.readFrom(s.id)).toHaveLength(1);
  });

  it('assigns consecutive seqs per session, across both append paths and a reopen', async () => {
    const l = tempLedger({ events: { groupCommitMs: 5 } });
    const a = l.createSession('a');
    const b = l.createSession('b');
    const first = l.events.enqueue(a.id, null, { type: 'start' });
    const other = l.events.enqueue(b.id, null, { type: 'start' });
    const sync = l.events.appendSync(a.id, null, { type: 'start-step' });
    const last = await l.events.append(a.id, null, { type: 'finish' });
    await first.durable;
    expect([first.event.seq, sync.seq, last.seq, other.event.seq]).toEqual([1, 2, 3, 1]);
    expect(l.events.readFrom(a.id, 1).map((e) => [e.seq, e.chunk.type])).toEqual([
      [2, 'start-step'],
      [3, 'finish'],
    ]);
    l.close();
    const again = track(openLedger(l.file));
    expect(again.events.appendSync(a.id, null, { type: 'start' }).seq).toBe(4);
  });

  it('group-commits: queued chunks are invisible to another connection until the batch commits', async () => {
    const l = tempLedger({ events: { groupCommitMs: 50 } });
    const s = l.createSession();
    const pending = Array.from({ length: 100 }, (_, i) => l.events.enqueue(s.id, null, { type: 'text-delta', id: 't', delta: String(i) }));
    const reader = track(openLedger(l.file));
    expect(reader.db.prepare('SELECT COUNT(*) FROM stream_events').pluck().get()).toBe(0);
    await Promise.all(pending.map((p) => p.durable));
    expect(reader.db.prepare('SELECT COUNT(*) FROM stream_events').pluck().get()).toBe(100);
  });

  it('reads a page of stored chunk text as one line per chunk, in seq order, the same whether aggregated in SQL or read row by row', () => {
    const l = tempLedger();
    const [a, b] = [l.createSession('a'), l.createSession('b')];
    const { run } = l.runs.submit(a.id, 'm1', 'go');
    for (let i = 0; i < 30; i++) {
      l.events.appendSync(a.id, i % 3 ? run.id : null, { type: 'text-delta', id: 't', delta: `line ${i}\nwith a newline and "quotes"` });
      l.events.appendSync(b.id, null, { type: 'start' });
    }
    const page = l.events.readTextBetween(a.id, 4, 20, 10);
    expect(page.seqs).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14]);
    expect(page.runIds).toEqual(page.seqs.map((seq) => (((seq - 1) % 3) ? run.id : null)));
    expect(page.lines.split('\n').map((line) => JSON.parse(line) as unknown)).toEqual(l.events.readFrom(a.id, 4, 10).map((e) => e.chunk));
    expect(l.events.readTextRows(a.id, 4, 20, 10)).toEqual(page);
    expect(l.events.readTextBetween(a.id, 30, 40, 10)).toEqual({ seqs: [], runIds: [], lines: '' });
    expect(l.events.readTextRows(a.id, 30, 40, 10)).toEqual({ seqs: [], runIds: [], lines: '' });
  });

  it('refuses chunks for an unknown session or a run of another session', () => {
    const l = tempLedger();
    const s = l.createSession();
    const t = l.createSession();
    const { run } = l.runs.submit(t.id, 'm', 'hi');
    expect(() => l.events.enqueue('nope', null, { type: 'start' })).toThrow(/No session "nope"/);
    expect(() => l.events.appendSync(s.id, run.id, { type: 'start' })).toThrow(/No run/);
    expect(() => l.events.appendSync(s.id, null, { nope: 1 } as never)).toThrow(/string "type"/);
  });

  it('touches the session on append, so the newest activity lists first', async () => {
    const l = tempLedger();
    const older = l.createSession('older');
    l.createSession('newer');
    await new Promise((r) => setTimeout(r, 5));
    await l.events.append(older.id, null, { type: 'start' });
    expect(l.sessions.list().map((s) => s.title)).toEqual(['older', 'newer']);
  });
  it('commits a batch of many chunks from several sessions in order, whatever its size (whole multi-row inserts and the rest)', async () => {
    const l = tempLedger({ events: { groupCommitMs: 60_000 } });
    const sessions = [l.createSession('a'), l.createSession('b'), l.createSession('c')];
    const sent = new Map<string, string[]>(sessions.map((s) => [s.id, []]));
    const promises = new Set<Promise<void>>();
    // 53 chunks: three whole groups of 16 and 5 single rows, interleaved across sessions.
    for (let i = 0; i < 53; i++) {
      const s = sessions[i % 3]!;
      const delta = `piece ${i} 人`;
      promises.add(l.events.enqueue(s.id, null, { type: 'text-delta', id: 't', delta }).durable);
      sent.get(s.id)!.push(delta);
    }
    // One batch, one promise shared by its chunks.
    expect(promises.size).toBe(1);
    l.events.flush();
    await Promise.all(promises);
    for (const s of sessions) {
      const stored = l.events.readFrom(s.id);
      expect(stored.map((e) => e.seq)).toEqual(sent.get(s.id)!.map((_, i) => i + 1));
      expect(stored.map((e) => (e.chunk.type === 'text-delta' ? e.chunk.delta : null))).toEqual(sent.get(s.id));
    }
    // The next chunk waits for the next batch, with a promise of its own.
    const next = l.events.enqueue(sessions[0]!.id, null, { type: 'finish' });
    expect(promises.has(next.durable)).toBe(false);
    l.events.flush();
    await next.durable;
    expect(l.events.lastSeqOf(sessions[0]!.id)).toBe(19);
  });

  it('a failed batch rejects the promise its chunks share, and none of them is stored', async () => {
    const l = tempLedger({ events: { groupCommitMs: 60_000 } });
    const s = l.createSession();
    const chunks = Array.from({ length: 20 }, (_, i) => l.events.enqueue(s.id, null, { type: 'text-delta', id: 't', delta: String(i) }));
    // Another connection holds the write lock: the commit fails (SQLITE_BUSY once the timeout is over).
    l.db.pragma('busy_timeout = 0');
    const other = track(openLedger(l.file));
    other.db.exec('BEGIN IMMEDIATE');
    expect(() => l.events.flush()).toThrow(/locked|busy/i);
    other.db.exec('ROLLBACK');
    await expect(chunks[0]!.durable).rejects.toThrow(/locked|busy/i);
    expect(l.events.readFrom(s.id)).toEqual([]);
  });
  it("a write deferred to 'ride' waits for the next commit made for another reason, then commits with it, first", async () => {
    const l = tempLedger();
    const other = track(openLedger(l.file));
    const count = () => other.db.prepare('SELECT COUNT(*) FROM settings').pluck().get() as number;
    const put = (key: string) => () => l.db.prepare(`INSERT INTO settings (key, value_json, updated_at) VALUES (?, '1', 'now')`).run(key);
    let rode = false;
    const riding = l.events.defer(put('begin'), 'ride').then(() => (rode = true));
    // Turns of the event loop go by: nothing commits it on its own.
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve));
    expect(rode).toBe(false);
    expect(count()).toBe(0);
    // A write a caller waits for commits at the end of this turn, the riding one with it, in order.
    await l.events.defer(put('outcome'));
    await riding;
    expect(other.db.prepare('SELECT key FROM settings ORDER BY rowid').pluck().all()).toEqual(['begin', 'outcome']);
  });

  it("a lazy chunk waits lazyCommitMs on its own, and goes at once with a sooner commit (a chunk's groupCommitMs)", async () => {
    const l = tempLedger({ events: { groupCommitMs: 1, lazyCommitMs: 60_000 } });
    const s = l.createSession();
    let lazyDone = false;
    const lazy = l.events.enqueue(s.id, null, { type: 'data-host-call', data: {} } as never, { lazy: true });
    void lazy.durable.then(() => (lazyDone = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lazyDone).toBe(false);
    const eager = l.events.enqueue(s.id, null, { type: 'start-step' });
    await eager.durable;
    await lazy.durable;
    expect(l.events.readFrom(s.id).map((e) => e.chunk.type)).toEqual(['data-host-call', 'start-step']);
  });

  it('a deferred write that throws is rolled back alone: the other writes of its batch commit once each', async () => {
    const l = tempLedger();
    const put = (key: string) => () => l.db.prepare(`INSERT INTO settings (key, value_json, updated_at) VALUES (?, '1', 'now')`).run(key);
    const first = l.events.defer(put('a'), 'ride');
    const bad = l.events.defer(put('a'), 'ride'); // the same key again: a constraint violation
    const last = l.events.defer(put('b'), 'lazy');
    l.events.flush();
    await first;
    await last;
    await expect(bad).rejects.toThrow(/UNIQUE|constraint/i);
    expect(l.db.prepare('SELECT key FROM settings ORDER BY rowid').pluck().all()).toEqual(['a', 'b']);
  });

  it('with mergeDeltas, the deltas of one block that wait for the same commit share a row; anything else between them starts a new one', async () => {
    const l = tempLedger({ events: { groupCommitMs: 60_000 } });
    const a = l.createSession('a');
    const b = l.createSession('b');
    const merge = { mergeDeltas: true };
    const first = l.events.enqueue(a.id, null, { type: 'text-delta', id: 't0', delta: 'Hel' }, merge);
    // Another session's chunk in between does not split a's block (seqs are per session).
    l.events.enqueue(b.id, null, { type: 'text-delta', id: 't0', delta: 'other' }, merge);
    const joined = l.events.enqueue(a.id, null, { type: 'text-delta', id: 't0', delta: 'lo 人' }, merge);
    expect(joined.merged).toBe(true);
    expect(joined.event).toBe(first.event);
    expect(joined.event.chunk).toEqual({ type: 'text-delta', id: 't0', delta: 'Hello 人' });
    // A different block, a different type, another chunk or provider metadata: a row each.
    l.events.enqueue(a.id, null, { type: 'text-delta', id: 't1', delta: 'x' }, merge);
    l.events.enqueue(a.id, null, { type: 'reasoning-delta', id: 't1', delta: 'y' }, merge);
    l.events.enqueue(a.id, null, { type: 'text-end', id: 't1' }, merge);
    l.events.enqueue(a.id, null, { type: 'text-delta', id: 't1', delta: 'z' }, merge);
    l.events.enqueue(a.id, null, { type: 'text-delta', id: 't1', delta: 'm', providerMetadata: { p: { q: 1 } } }, merge);
    // Without the option, every delta is a row.
    l.events.enqueue(a.id, null, { type: 'text-delta', id: 't1', delta: 'n' });
    l.events.enqueue(a.id, null, { type: 'text-delta', id: 't1', delta: 'o' });
    l.events.flush();
    await first.durable;
    // After the commit a delta of the same block starts a new row: rows only merge while they wait together.
    const after = l.events.enqueue(a.id, null, { type: 'text-delta', id: 't1', delta: 'p' }, merge);
    expect(after.merged).toBe(false);
    l.events.flush();
    const stored = l.events.readFrom(a.id);
    expect(stored.map((e) => [e.seq, e.chunk])).toEqual([
      [1, { type: 'text-delta', id: 't0', delta: 'Hello 人' }],
      [2, { type: 'text-delta', id: 't1', delta: 'x' }],
      [3, { type: 'reasoning-delta', id: 't1', delta: 'y' }],
      [4, { type: 'text-end', id: 't1' }],
      [5, { type: 'text-delta', id: 't1', delta: 'z' }],
      [6, { type: 'text-delta', id: 't1', delta: 'm', providerMetadata: { p: { q: 1 } } }],
      [7, { type: 'text-delta', id: 't1', delta: 'n' }],
      [8, { type: 'text-delta', id: 't1', delta: 'o' }],
      [9, { type: 'text-delta', id: 't1', delta: 'p' }],
    ]);
    expect(l.events.readFrom(b.id).map((e) => e.chunk)).toEqual([{ type: 'text-delta', id: 't0', delta: 'other' }]);
  });

  it('a merged delta row stops growing at MERGED_DELTA_MAX_CHARS; the next delta starts a row', () => {
    const l = tempLedger({ events: { groupCommitMs: 60_000 } });
    const s = l.createSession();
    const piece = 'x'.repeat(MERGED_DELTA_MAX_CHARS / 4);
    for (let i = 0; i < 5; i++) l.events.enqueue(s.id, null, { type: 'text-delta', id: 't', delta: piece }, { mergeDeltas: true });
    const stored = l.events.readFrom(s.id);
    expect(stored.map((e) => (e.chunk.type === 'text-delta' ? e.chunk.delta.length : 0))).toEqual([MERGED_DELTA_MAX_CHARS, MERGED_DELTA_MAX_CHARS / 4]);
  });
});
