import { describe, expect, it } from 'vitest';
import { AppError } from '../../../src-preload/contract/errors';
import { tempLedger } from './support';

describe('runs: submission and lifecycle', () => {
  it('is idempotent on mutationId: a repeat returns the same run and appends nothing', () => {
    const l = tempLedger();
    const s = l.createSession();
    const first = l.runs.submit(s.id, 'mut-1', 'look up INS', 1);
    expect(first.created).toBe(true);
    expect(first.run).toMatchObject({ status: 'queued', mutationId: 'mut-1', message: 'look up INS', failureCode: null });
    // The user's turn enters the stream when the run starts, not while it is queued.
    expect(l.events.lastSeqOf(s.id)).toBe(0);
    // The same mutation again, even with the (now stale) revision it was sent with.
    const again = l.runs.submit(s.id, 'mut-1', 'look up INS', 1);
    expect(again).toEqual({ run: first.run, created: false });
    expect(l.runs.listBySession(s.id)).toHaveLength(1);
    const started = l.runs.start(first.run.id, 'ark', 'm');
    expect(started.event).toMatchObject({ seq: 1, runId: first.run.id, chunk: { type: 'user-message', text: 'look up INS' } });
    expect(l.events.lastSeqOf(s.id)).toBe(1);
    expect(l.sessions.require(s.id).revision).toBe(2);
  });

  it('refuses a stale expectedRevision with revision_conflict', () => {
    const l = tempLedger();
    const s = l.createSession();
    l.runs.submit(s.id, 'mut-1', 'one', 1);
    let error: unknown;
    try {
      l.runs.submit(s.id, 'mut-2', 'two', 1);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(AppError);
    expect(error).toMatchObject({ code: 'revision_conflict', message: expect.stringMatching(/revision 2.*expected revision 1.*Reload/) });
    expect(l.runs.listBySession(s.id)).toHaveLength(1);
    expect(l.runs.submit(s.id, 'mut-2', 'two', 2).created).toBe(true);
    expect(() => l.sessions.rename(s.id, 'x', 2)).toThrow(/revision 3/);
  });

  it('keeps seqs gapless after a refused submission', () => {
    const l = tempLedger();
    const s = l.createSession();
    const { run } = l.runs.submit(s.id, 'a', 'one');
    l.runs.start(run.id, null, null);
    expect(() => l.runs.submit(s.id, 'b', 'two', 99)).toThrow(AppError);
    expect(l.events.appendSync(s.id, null, { type: 'start' }).seq).toBe(2);
  });

  it('moves through the statuses of DESIGN.md and refuses leaving a terminal one', () => {
    const l = tempLedger();
    const s = l.createSession();
    const { run } = l.runs.submit(s.id, 'm', 'hi');
    expect(l.runs.start(run.id, 'ark', 'doubao-seed-2.0-pro').run).toMatchObject({ status: 'processing', provider: 'ark' });
    const done = l.runs.finish(run.id, { status: 'failed', failureCode: 'provider_unavailable', failureMessage: 'HTTP 503', usage: { inputTokens: 10 }, costUsd: 0.001 });
    expect(done).toMatchObject({ status: 'failed', failureCode: 'provider_unavailable', usage: { inputTokens: 10 }, costUsd: 0.001 });
    expect(done.finishedAt).not.toBeNull();
    expect(() => l.runs.start(run.id, null, null)).toThrow(/is failed and cannot become processing/);
    expect(() => l.runs.finish(run.id, { status: 'failed' })).toThrow(/needs a failureCode/);
    expect(() => l.runs.finish(run.id, { status: 'failed', failureCode: 'bogus' as never })).toThrow();
  });

  it('lists sessions newest first and hides a deleted one, keeping its stream', async () => {
    const l = tempLedger();
    const a = l.createSession('a');
    const b = l.createSession('b');
    await new Promise((r) => setTimeout(r, 5));
    l.runs.start(l.runs.submit(a.id, 'm', 'hi').run.id, null, null);
    expect(l.sessions.list().map((s) => s.title)).toEqual(['a', 'b']);
    l.deleteSession(a.id);
    expect(l.sessions.list().map((s) => s.id)).toEqual([b.id]);
    expect(() => l.history(a.id)).toThrow(/No session/);
    expect(l.db.prepare('SELECT COUNT(*) FROM stream_events WHERE session_id = ?').pluck().get(a.id)).toBe(1);
    expect(() => l.sessions.rename(a.id, 'x')).toThrow(/No session/);
  });
});
