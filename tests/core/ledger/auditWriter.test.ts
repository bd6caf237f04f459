import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { LedgerAudit, type AuditOutcome } from '../../../src-main/core/capabilities/audit';
import type { AuditRecord } from '../../../src-main/core/ledger/actionsRepo';
import { encodeJournal } from '../../../src-main/core/ledger/auditJournal';
import { openLedger, type Ledger, type LedgerOptions } from '../../../src-main/core/ledger/ledger';
import { quietReview, recordTrivialCell } from './fixtures/userCellShapes';
import { cellCall, tempDir, tempLedger, track } from './support';

function ledgerWithRun(options: LedgerOptions = {}): { ledger: Ledger; runId: string; sessionId: string; audit: LedgerAudit } {
  const ledger = tempLedger(options);
  const session = ledger.createSession('writer');
  const { run } = ledger.runs.submit(session.id, 'm', 'read');
  ledger.runs.start(run.id, 'mock', 'mock');
  return { ledger, runId: run.id, sessionId: session.id, audit: new LedgerAudit(() => ledger, `${ledger.file}.fallback.jsonl`) };
}


const ok: AuditOutcome = { decision: { action: 'allow', by: 'default' }, status: 'ok', isError: false, executed: true, text: 'note', durationMs: 0 };

async function answer(audit: LedgerAudit, sessionId: string, runId: string, n: number): Promise<void> {
  for (let i = 0; i < n; i++) {
    const [slot] = audit.begin([cellCall(sessionId, runId, `k${i}`)]);
    await audit.finish(slot!, ok);
  }
}

/** Answered calls as another connection sees them (committed rows only). */
function committedCalls(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare('SELECT COUNT(*) FROM action_events WHERE finished_at IS NOT NULL').pluck().get() as number;
  } finally {
    db.close();
  }
}

const wholeCall = (sessionId: string, runId: string, id: string): AuditRecord => ({
  k: 'call',
  id,
  at: new Date().toISOString(),
  input: { sessionId, runId, kind: 'tool_batch', turn: 0, calls: [{ name: 'read_note', rawArguments: '{}', arguments: {}, sideEffect: 'read' }] },
  result: '{"status":"ok"}',
  isError: false,
  status: 'completed',
  finishedAt: new Date().toISOString(),
});

describe('the audit writer thread (a cell’s read-only host calls committed off the main thread)', () => {
  it('commits answered calls on its own connection, and a read right after them sees every one', async () => {
    const { ledger, runId, sessionId, audit } = ledgerWithRun();
    const writer = ledger.auditWriter!;
    expect(await writer.serving()).toBe(true);
    await answer(audit, sessionId, runId, 50);
    expect(writer.pending).toBe(50); // handed to no one yet: they wait for company
    expect(ledger.actions.listByRun(runId)).toHaveLength(50); // the read waited for the writer
    expect(writer.pending).toBe(0);
    expect(writer.committedRecords).toBe(50);
    expect(committedCalls(ledger.file)).toBe(50);
  });

  it('a read inside a main-thread transaction that holds the write lock sees them at once (it does not wait for a writer waiting for that lock)', async () => {
    const { ledger, runId, sessionId, audit } = ledgerWithRun();
    expect(await ledger.auditWriter!.serving()).toBe(true);
    await answer(audit, sessionId, runId, 20);
    const started = Date.now();
    const seen = ledger.db.transaction(() => ledger.actions.listByRun(runId).length).immediate();
    expect(seen).toBe(20);
    expect(Date.now() - started).toBeLessThan(5_000); // not the writer's wait for the lock, then ours
    // The writer commits them again after the transaction: a record applied twice is applied once.
    expect(ledger.actions.listByRun(runId)).toHaveLength(20);
    expect(committedCalls(ledger.file)).toBe(20);
  });

  it('if the thread dies, what it held is committed on the main thread, and so is every later call', async () => {
    const { ledger, runId, sessionId, audit } = ledgerWithRun();
    const writer = ledger.auditWriter!;
    expect(await writer.serving()).toBe(true);
    await answer(audit, sessionId, runId, 10);
    await (writer as unknown as { worker: { terminate(): Promise<number> } }).worker.terminate();
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(writer.failure).toMatch(/exited/);
    await answer(audit, sessionId, runId, 5);
    expect(ledger.actions.listByRun(runId)).toHaveLength(15);
    expect(committedCalls(ledger.file)).toBe(15);
  });

  it('without its entry the thread does not start, says why, and the calls are committed on the main thread', async () => {
    const { ledger, runId, sessionId, audit } = ledgerWithRun({ auditWriter: { source: () => null } });
    expect(await ledger.auditWriter!.serving()).toBe(false);
    expect(ledger.auditWriter!.failure).toMatch(/ledgerWriter\.js/);
    await answer(audit, sessionId, runId, 5);
    expect(ledger.actions.listByRun(runId)).toHaveLength(5);
  });

  it('a record whose rows cannot be written is rejected alone; the rest of its batch is committed', async () => {
    const { ledger, runId, sessionId } = ledgerWithRun();
    const writer = ledger.auditWriter!;
    expect(await writer.serving()).toBe(true);
    const good = wholeCall(sessionId, runId, 'good-call');
    const orphan = wholeCall(sessionId, 'no-such-run', 'orphan-call');
    const results = await Promise.allSettled([good, orphan].map((r) => writer.submit(encodeJournal([r]), [r])!));
    expect(results[0]).toEqual({ status: 'fulfilled', value: undefined });
    expect(results[1]).toMatchObject({ status: 'rejected', reason: { message: expect.stringMatching(/FOREIGN KEY/) } });
    expect(ledger.actions.listByRun(runId).map((g) => g.id)).toEqual(['good-call']);
  });

  it('a process waiting for the thread to serve stays up until it does (the thread itself never keeps it up)', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/writerServingChild.ts'), `${tempDir()}/ledger.sqlite3`], { encoding: 'utf8', timeout: 60_000 });
    expect(child.stderr).toBe('');
    expect(child.stdout).toBe('serving true\n');
    expect(child.status).toBe(0);
  });

  it('close commits what the writer holds, closes its connection first (the WAL goes with the last one) and deletes the journal', async () => {
    const file = `${tempDir()}/ledger.sqlite3`;
    const ledger = openLedger(file);
    const session = ledger.createSession('close');
    const { run } = ledger.runs.submit(session.id, 'm', 'read');
    ledger.runs.start(run.id, 'mock', 'mock');
    expect(await ledger.auditWriter!.serving()).toBe(true);
    await answer(new LedgerAudit(() => ledger, `${file}.fallback.jsonl`), session.id, run.id, 30);
    const journal = ledger.auditJournal!.file;
    ledger.close();
    expect(fs.existsSync(journal)).toBe(false);
    expect(fs.existsSync(`${file}-wal`)).toBe(false);
    expect(committedCalls(file)).toBe(30);
    const again = track(openLedger(file));
    expect(again.actions.listByRun(run.id)).toHaveLength(30);
  });
  it('commits a notebook cell’s record, evidence and review too, off the main thread; a read of a cell’s versions waits for them', async () => {
    const { ledger, sessionId } = ledgerWithRun();
    const writer = ledger.auditWriter!;
    expect(await writer.serving()).toBe(true);
    const check = ledger.safety.prepare(quietReview(sessionId));
    await ledger.journaled([check.journal], check.write);
    for (let n = 1; n <= 3; n++) await recordTrivialCell(ledger, sessionId, n);
    // The main thread's queue holds none of them: the writer has them (the review, and each
    // cell's evidence and record as one entry).
    expect(writer.pending).toBe(4);
    expect(ledger.events.pendingWrites).toBe(0);
    // A new version of a cell is numbered from the versions before it, even while the writer
    // still holds them (its read waits for the writer).
    await recordTrivialCell(ledger, sessionId, 4, 'cell-a');
    await recordTrivialCell(ledger, sessionId, 5, 'cell-a');
    expect(ledger.userCells.list(sessionId).map((c) => [c.cellKey.startsWith('uc_') ? 'new' : c.cellKey, c.version])).toEqual([
      ['new', 1],
      ['new', 1],
      ['new', 1],
      ['cell-a', 1],
      ['cell-a', 2],
    ]);
    expect(writer.pending).toBe(0);
    expect(writer.committedRecords).toBe(6);
    const db = new Database(ledger.file, { readonly: true });
    try {
      expect(['user_cells', 'evidence', 'safety_checks'].map((t) => db.prepare(`SELECT COUNT(*) FROM ${t}`).pluck().get())).toEqual([5, 5, 1]);
    } finally {
      db.close();
    }
  });
});
