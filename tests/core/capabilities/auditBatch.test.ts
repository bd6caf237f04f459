import fs from 'node:fs';
import Database from 'better-sqlite3';
import { describe, expect, it, vi } from 'vitest';
import { LedgerAudit, type AuditCall } from '../../../src-main/core/capabilities/audit';
import { cellCall, ok } from './auditSupport';
import type { WholeCallRecord } from '../../../src-main/core/ledger/actionsRepo';
import type { Ledger } from '../../../src-main/core/ledger/ledger';
import { tempLedger } from '../ledger/support';

/**
 * A cell's read-only host calls answered between two group commits are written together:
 * one deferred write for the burst, multi-row inserts inside it (ActionsRepo.insertCalls).
 */

function startedRun(ledger: Ledger, title: string): { sessionId: string; runId: string } {
  const session = ledger.createSession(title);
  const { run } = ledger.runs.submit(session.id, `m-${title}`, 'read');
  ledger.runs.start(run.id, 'mock', 'mock');
  return { sessionId: session.id, runId: run.id };
}


async function answer(audit: LedgerAudit, call: AuditCall): Promise<void> {
  const [slot] = audit.begin([call]);
  await audit.finish(slot!, ok);
}

describe('the audit of a burst of read-only host calls', () => {
  it('writes the calls answered between two commits with one deferred write, every call in its own group, in order', async () => {
    for (const sync of ['normal', 'full'] as const) {
      const ledger = tempLedger({ events: { groupCommitMs: 60_000 }, sync });
      const { sessionId, runId } = startedRun(ledger, sync);
      const audit = new LedgerAudit(() => ledger, `${ledger.file}.fallback.jsonl`);
      const defer = vi.spyOn(ledger.events, 'defer');
      // 16 calls a statement: two whole statements and a remainder of 8, one by one.
      const keys = Array.from({ length: 40 }, (_, i) => `k${i}`);
      if (sync === 'normal') {
        // Journaled: each is answered at once; the rows wait for the next commit.
        for (const key of keys) await answer(audit, cellCall(sessionId, runId, key));
        expect(defer).toHaveBeenCalledTimes(1);
        ledger.events.flush();
      } else {
        // No journal: the calls of one turn wait for the commit at the end of that turn, together.
        await Promise.all(keys.map((key) => answer(audit, cellCall(sessionId, runId, key))));
        expect(defer).toHaveBeenCalledTimes(1);
      }
      const groups = ledger.actions.listByRun(runId);
      expect(groups.map((g) => g.events[0]!.arguments)).toEqual(keys.map((key) => ({ key })));
      expect(groups.every((g) => g.status === 'completed' && g.kind === 'tool_batch' && g.events[0]!.finishedAt !== null)).toBe(true);
      expect(new Set(groups.map((g) => g.turn)).size).toBe(keys.length);
      defer.mockRestore();
    }
  });

  it('a call whose run is gone when the batch is written goes to the fallback file; the calls around it are in the ledger', async () => {
    const ledger = tempLedger({ events: { groupCommitMs: 60_000 } });
    const kept = startedRun(ledger, 'kept');
    const gone = startedRun(ledger, 'gone');
    const fallback = `${ledger.file}.fallback.jsonl`;
    const audit = new LedgerAudit(() => ledger, fallback);
    // Interleaved, so a failing record sits inside a 16-call statement.
    for (let i = 0; i < 20; i++) {
      await answer(audit, cellCall(kept.sessionId, kept.runId, `kept-${i}`));
      if (i % 5 === 2) await answer(audit, cellCall(gone.sessionId, gone.runId, `gone-${i}`));
    }
    // The run disappears behind the ledger's back before the commit (another connection, no FK checks).
    const other = new Database(ledger.file);
    other.pragma('foreign_keys = OFF');
    other.prepare('DELETE FROM runs WHERE id = ?').run(gone.runId);
    other.close();
    ledger.events.flush();
    await new Promise((resolve) => setImmediate(resolve));

    expect(ledger.actions.listByRun(kept.runId).map((g) => (g.events[0]!.arguments as { key: string }).key)).toEqual(Array.from({ length: 20 }, (_, i) => `kept-${i}`));
    const lost = fs
      .readFileSync(fallback, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { runId: string; target: string; note: string });
    expect(lost.map((r) => r.target)).toEqual(['gone-2', 'gone-7', 'gone-12', 'gone-17']);
    expect(lost.every((r) => r.runId === gone.runId && /could not record in the ledger: .*FOREIGN KEY/.test(r.note))).toBe(true);
    expect(ledger.db.pragma('foreign_key_check(action_groups)')).toEqual([]);
  });

  it('insertCalls writes what it can and returns the records it could not write, by index', () => {
    const ledger = tempLedger();
    const { sessionId, runId } = startedRun(ledger, 'repo');
    const record = (id: string, run: string): WholeCallRecord => ({
      k: 'call',
      id,
      at: '2026-01-01T00:00:00.000Z',
      input: { sessionId, runId: run, kind: 'tool_batch', turn: 0, calls: [{ name: 'read_note', rawArguments: '{}', arguments: {}, sideEffect: 'read' }] },
      result: '{"status":"ok"}',
      isError: false,
      status: 'completed',
      finishedAt: '2026-01-01T00:00:01.000Z',
    });
    const records = Array.from({ length: 33 }, (_, i) => record(`g-${String(i).padStart(2, '0')}`, i === 5 || i === 32 ? 'no-such-run' : runId));
    const failed = ledger.db.transaction(() => ledger.actions.insertCalls(records))();
    expect([...failed.keys()]).toEqual([5, 32]);
    expect(ledger.actions.listByRun(runId).map((g) => g.id)).toEqual(records.filter((_, i) => i !== 5 && i !== 32).map((r) => r.id));
    // Written twice (a journal replayed after its commit): nothing changes, nothing fails.
    expect(ledger.db.transaction(() => ledger.actions.insertCalls(records.filter((_, i) => i !== 5 && i !== 32)))().size).toBe(0);
    expect(ledger.actions.listByRun(runId)).toHaveLength(31);
  });
});
