import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { afterLines, linesAfterFirst, runUntilKilled } from '../../support/killChild';
import { cellResult, quietReview, recordTrivialCell } from './fixtures/userCellShapes';
import { tempDir, tempLedger, track } from './support';

/** Group commits that wait a minute: journaled rows stay out of SQLite until something commits. */
const slow = { events: { groupCommitMs: 60_000, lazyCommitMs: 60_000 } };

/** Rows of `table` as another connection sees them: what survives if this process dies now, without its journal. */
function committed(file: string, table: 'user_cells' | 'evidence' | 'safety_checks'): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(`SELECT COUNT(*) FROM ${table}`).pluck().get() as number;
  } finally {
    db.close();
  }
}

const journalsIn = (dir: string) =>
  fs.readdirSync(dir).filter((n) => n.startsWith('ledger.sqlite3-audit-'));

describe('a user cell is durable in the journal before its commit (normal level)', () => {
  it('is answered once its record, evidence and review are journaled; a read sees them at once, and SQLite has them after the next commit', async () => {
    const ledger = tempLedger(slow);
    const { id: sessionId } = ledger.createSession('cells');
    const check = ledger.safety.prepare(quietReview(sessionId));
    await ledger.journaled([check.journal], check.write);
    const cell = await recordTrivialCell(ledger, sessionId, 1);
    expect(cell).toMatchObject({ sessionId, version: 1, status: 'ok', result: { stdout: '1\n' } });
    // Answered with nothing committed: the rows are in the journal only.
    expect([
      committed(ledger.file, 'user_cells'),
      committed(ledger.file, 'evidence'),
      committed(ledger.file, 'safety_checks'),
    ]).toEqual([0, 0, 0]);
    const lines = fs
      .readFileSync(ledger.auditJournal!.file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { k: string });
    expect(lines.map((l) => l.k)).toEqual(['safety_check', 'evidence', 'user_cell']);
    // Reads commit the queue first.
    expect(ledger.userCells.list(sessionId)).toEqual([cell]);
    expect(ledger.provenance.evidence.get(sessionId, cell.evidenceId!)).toMatchObject({
      kind: 'cell',
      title: 'Python cell 1 (ok)',
      envelope: { n: 1 },
    });
    expect(ledger.safety.listBySession(sessionId).map((c) => c.id)).toEqual([check.record.id]);
    expect([
      committed(ledger.file, 'user_cells'),
      committed(ledger.file, 'evidence'),
      committed(ledger.file, 'safety_checks'),
    ]).toEqual([1, 1, 1]);
  });

  it('another run of a cell whose last run is still queued gets the next version, never the same one', async () => {
    const ledger = tempLedger(slow);
    const { id: sessionId } = ledger.createSession('versions');
    const first = await recordTrivialCell(ledger, sessionId, 1);
    const second = await recordTrivialCell(ledger, sessionId, 2, first.cellKey);
    const third = await recordTrivialCell(ledger, sessionId, 3, first.cellKey);
    const other = await recordTrivialCell(ledger, sessionId, 4);
    expect([first.version, second.version, third.version, other.version]).toEqual([1, 2, 3, 1]);
    expect(new Set([first.cellKey, second.cellKey, third.cellKey])).toEqual(
      new Set([first.cellKey]),
    );
    expect(
      ledger.userCells
        .list(sessionId)
        .map((c) => `${c.cellKey === first.cellKey ? 'a' : 'b'}${c.version}`),
    ).toEqual(['a1', 'a2', 'a3', 'b1']);
  });

  it('a run recorded at once (a cell with figures) after a run still queued gets the next version, and both rows are kept', async () => {
    const ledger = tempLedger(slow);
    const { id: sessionId } = ledger.createSession('figures');
    const queued = await recordTrivialCell(ledger, sessionId, 1);
    const at = new Date().toISOString();
    const now = ledger.userCells.record({ sessionId, cellKey: queued.cellKey, language: 'python', code: 'plot()', result: cellResult(sessionId, 2), evidenceId: null, hostCalls: [], startedAt: at, finishedAt: at });
    expect(now.version).toBe(2);
    ledger.events.flush();
    expect(ledger.userCells.list(sessionId).map((c) => c.version)).toEqual([1, 2]);
    // Nothing failed to commit, so nothing is kept for a replay.
    ledger.close();
    expect(journalsIn(path.dirname(ledger.file))).toHaveLength(0);
  });

  it('at full there is no journal: the record resolves once its rows are committed', async () => {
    const ledger = tempLedger({ ...slow, sync: 'full' });
    const { id: sessionId } = ledger.createSession('full');
    expect(ledger.auditJournal).toBeNull();
    const cell = await recordTrivialCell(ledger, sessionId, 1);
    expect(committed(ledger.file, 'user_cells')).toBe(1);
    expect(committed(ledger.file, 'evidence')).toBe(1);
    expect(ledger.userCells.list(sessionId)[0]!.id).toBe(cell.id);
  });

  it('a journaled row whose commit fails stays in the journal after close, and the next open tries it again', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'ledger.sqlite3');
    const ledger = openLedger(file, slow);
    const { id: sessionId } = ledger.createSession('kept');
    // No such session: the row's foreign key fails at its commit, after the caller was answered.
    const at = new Date().toISOString();
    await ledger.recordUserCell(
      {
        sessionId: 'no-such-session',
        cellKey: null,
        language: 'python',
        code: 'x',
        result: cellResult('no-such-session', 1),
        hostCalls: [],
        startedAt: at,
        finishedAt: at,
      },
      null,
    );
    const good = await recordTrivialCell(ledger, sessionId, 2);
    expect(ledger.userCells.list(sessionId).map((c) => c.id)).toEqual([good.id]);
    ledger.close();
    expect(journalsIn(dir)).toHaveLength(1);
    const reopened = track(openLedger(file));
    // The good cell's rows were committed already (replayed as no-ops); the failing one fails again and is skipped.
    expect(reopened.auditReplay).toEqual({ applied: 2, skipped: 1 }); // the good cell's evidence and record
    expect(journalsIn(dir)).toHaveLength(0);
    expect(reopened.userCells.list(sessionId).map((c) => c.id)).toEqual([good.id]);
  });
});

describe('user cells under kill -9', () => {
  it('every cell the caller saw answered has its record, evidence and review after the next open, and the ledger is intact', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'ledger.sqlite3');
    const KILL_AFTER = 300;
    const { first, printed } = linesAfterFirst(await runUntilKilled(path.join(import.meta.dirname, 'fixtures/userCellBurstChild.ts'), [file, '100000'], afterLines(KILL_AFTER)));
    const { sessionId } = JSON.parse(first) as { sessionId: string };
    const answered = printed.map((l) => l.split(' ') as [string, string, string]);
    expect(answered.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(journalsIn(dir)).toHaveLength(1);

    const ledger = track(openLedger(file));
    expect(ledger.auditReplay).toMatchObject({ skipped: 0 });
    // Cells were answered faster than the group commit ran: some were in the journal only.
    expect(ledger.auditReplay!.applied).toBeGreaterThan(0);
    expect(journalsIn(dir)).toHaveLength(0);
    const cells = new Set(ledger.userCells.list(sessionId).map((c) => c.id));
    const checks = new Set(ledger.safety.listBySession(sessionId).map((c) => c.id));
    for (const [cellId, evidenceId, checkId] of answered) {
      expect(cells.has(cellId), cellId).toBe(true);
      expect(ledger.provenance.evidence.get(sessionId, evidenceId), evidenceId).not.toBeNull();
      expect(checks.has(checkId), checkId).toBe(true);
    }
    expect(ledger.db.pragma('integrity_check', { simple: true })).toBe('ok');
    // Replaying again (a journal left by a crash during the replay) changes nothing.
    expect(ledger.userCells.list(sessionId)).toHaveLength(cells.size);
  }, 60_000);
});
