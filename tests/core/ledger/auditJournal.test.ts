import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LedgerAudit, type AuditOutcome } from '../../../src-main/core/capabilities/audit';
import type { Ledger } from '../../../src-main/core/ledger/ledger';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { cellCall, tempDir, tempLedger, track } from './support';

/**
 * A ledger whose group commit waits a minute: journaled rows stay out of SQLite until the
 * test flushes. Without the audit writer thread (auditWriter.test.ts), which would commit
 * them on its own once it has started.
 */
function slowCommitLedger(sync?: 'full'): { ledger: Ledger; runId: string; sessionId: string } {
  const ledger = tempLedger({ events: { groupCommitMs: 60_000, lazyCommitMs: 60_000 }, auditWriter: false, ...(sync ? { sync } : {}) });
  const session = ledger.createSession('journal');
  const { run } = ledger.runs.submit(session.id, 'm', 'read');
  ledger.runs.start(run.id, 'mock', 'mock');
  return { ledger, runId: run.id, sessionId: session.id };
}


const ok: AuditOutcome = { decision: { action: 'allow', by: 'default' }, status: 'ok', isError: false, executed: true, text: 'note', durationMs: 0 };

/** Rows in the file as another connection sees them (what survives if this process dies now, without the journal). */
function committedRows(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT COUNT(*) FROM action_events WHERE finished_at IS NOT NULL`).pluck().get() as number;
  } finally {
    db.close();
  }
}

/** The ledger's files as they are now, in another folder: the state a kill -9 at this moment leaves. */
function crashCopy(ledger: Ledger): string {
  const dir = tempDir();
  const dest = path.join(dir, 'ledger.sqlite3');
  for (const name of fs.readdirSync(path.dirname(ledger.file))) {
    if (!name.startsWith(path.basename(ledger.file)) || name.endsWith('.owner')) continue;
    fs.copyFileSync(path.join(path.dirname(ledger.file), name), path.join(dir, name.replace(path.basename(ledger.file), 'ledger.sqlite3')));
  }
  return dest;
}

describe('the host-call audit journal (normal level)', () => {
  it('answers a read-only call once its rows are in the journal; SQLite gets them with the next group commit', async () => {
    const { ledger, runId, sessionId } = slowCommitLedger();
    const audit = new LedgerAudit(() => ledger, `${ledger.file}.fallback.jsonl`);
    const [slot] = audit.begin([cellCall(sessionId, runId, 'a')]);
    await audit.finish(slot!, ok); // answered: returns at once
    expect(ledger.auditJournal!.pending).toBe(1);
    expect(fs.readFileSync(ledger.auditJournal!.file, 'utf8').trim().split('\n').map((l) => (JSON.parse(l) as { k: string }).k)).toEqual(['call']); // begun, answered and finished: one record
    expect(committedRows(ledger.file)).toBe(0);
    ledger.events.flush();
    await Promise.resolve();
    expect(committedRows(ledger.file)).toBe(1);
    expect(ledger.actions.listByRun(runId)[0]).toMatchObject({ status: 'completed', events: [{ name: 'read_note', result: { status: 'ok', text: 'note' } }] });
  });

  it('a kill -9 before the commit leaves the rows in the journal; the next open replays them before repair, then deletes the journal', async () => {
    const { ledger, runId, sessionId } = slowCommitLedger();
    const audit = new LedgerAudit(() => ledger, `${ledger.file}.fallback.jsonl`);
    for (const key of ['a', 'b', 'c']) {
      const [slot] = audit.begin([cellCall(sessionId, runId, key)]);
      await audit.finish(slot!, ok);
    }
    // A call with effects: its begin row is journaled before it runs; it is cut off before its outcome.
    const [cut] = audit.begin([cellCall(sessionId, runId, 'w', 'write')]);
    await cut!.recorded;
    const copy = crashCopy(ledger);
    expect(committedRows(copy)).toBe(0);

    const reopened = track(openLedger(copy));
    expect(reopened.auditReplay).toEqual({ applied: 3 + 1, skipped: 0 });
    const groups = reopened.actions.listByRun(runId);
    expect(groups.map((g) => [g.events[0]!.arguments, g.status])).toEqual([
      [{ key: 'a' }, 'completed'],
      [{ key: 'b' }, 'completed'],
      [{ key: 'c' }, 'completed'],
      // Replayed, then closed by crash repair as any call cut off by a crash is.
      [{ key: 'w' }, 'interrupted'],
    ]);
    expect(fs.readdirSync(path.dirname(copy)).filter((n) => n.includes('-audit-'))).toEqual([]);
    expect(reopened.db.pragma('integrity_check', { simple: true })).toBe('ok');
  });

  it('replaying rows that were also committed changes nothing; a torn last line and a record of a deleted session are skipped', async () => {
    const { ledger, runId, sessionId } = slowCommitLedger();
    const audit = new LedgerAudit(() => ledger, `${ledger.file}.fallback.jsonl`);
    const [slot] = audit.begin([cellCall(sessionId, runId, 'a')]);
    await audit.finish(slot!, ok);
    ledger.events.flush();
    const journal = ledger.auditJournal!.file;
    const ghost = { k: 'begin', id: 'g-1', at: new Date().toISOString(), input: { sessionId: 'no-such-session', runId: 'no-such-run', kind: 'tool_batch', turn: 0, calls: [] } };
    fs.appendFileSync(journal, `${JSON.stringify(ghost)}\n{"k":"result","id":"cut`);
    const copy = crashCopy(ledger);
    const reopened = track(openLedger(copy));
    expect(reopened.auditReplay).toEqual({ applied: 1, skipped: 1 });
    expect(reopened.actions.listByRun(runId)).toHaveLength(1);
    expect(reopened.actions.listByRun(runId)[0]!.events).toHaveLength(1);
  });

  it('close commits the queue and deletes the journal', async () => {
    const { ledger, runId, sessionId } = slowCommitLedger();
    const audit = new LedgerAudit(() => ledger, `${ledger.file}.fallback.jsonl`);
    const [slot] = audit.begin([cellCall(sessionId, runId, 'a')]);
    await audit.finish(slot!, ok);
    const journal = ledger.auditJournal!.file;
    expect(fs.existsSync(journal)).toBe(true);
    ledger.close();
    expect(fs.existsSync(journal)).toBe(false);
    expect(committedRows(ledger.file)).toBe(1);
  });

  it('at the full level there is no journal: a call is answered once its rows are committed (and fsynced)', async () => {
    const { ledger, runId, sessionId } = slowCommitLedger('full');
    expect(ledger.auditJournal).toBeNull();
    const audit = new LedgerAudit(() => ledger, `${ledger.file}.fallback.jsonl`);
    const [slot] = audit.begin([cellCall(sessionId, runId, 'a')]);
    await audit.finish(slot!, ok);
    expect(committedRows(ledger.file)).toBe(1);
  });
});
