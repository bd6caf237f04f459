import { describe, expect, it } from 'vitest';
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
});
