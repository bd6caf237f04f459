import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResultArchive } from '../../../src-main/core/archive/resultArchive';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { priorHistory } from '../../../src-main/core/runner/priorHistory';
import { runUntilKilled } from '../../support/killChild';

const cleanups: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanups.splice(0)) c();
});

describe('kill -9 during a compaction (issue 19)', () => {
  it('leaves an intact ledger: the run is closed by repair, no half compaction, every archived result recallable byte-exact, and the session continues', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-compaction-crash-'));
    cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
    const out = await runUntilKilled(path.join(import.meta.dirname, 'fixtures/compactionCrashChild.ts'), [dir], (printed) => printed.includes('SUMMARY\n'));
    const { sessionId, runId } = JSON.parse(out.split('\n')[0]!) as { sessionId: string; runId: string };

    const ledger: Ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
    cleanups.unshift(() => ledger.close());
    expect(ledger.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(ledger.repair!.interruptedRuns).toEqual([runId]);
    expect(ledger.runs.require(runId)).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
    // The summary never came back: nothing half-written.
    expect(ledger.archive.compactionsBySession(sessionId)).toEqual([]);
    // What was archived before the crash is whole, and recallable byte-exact.
    const archived = ledger.archive.resultsBySession(sessionId);
    expect(archived.length).toBeGreaterThan(0);
    const archive = new ResultArchive(path.join(dir, 'tool-results'), () => ledger.archive);
    for (const row of archived) {
      const bytes = archive.read(sessionId, row.sha256);
      expect(createHash('sha256').update(bytes).digest('hex')).toBe(row.sha256);
      expect(bytes.length).toBe(row.bytes);
    }
    // The next run reads the interrupted run as the earlier turns (its message is closed, not left open).
    const history = ledger.history(sessionId);
    expect(priorHistory(history.messages)[0]).toEqual({ role: 'user', content: 'Read every part.' });
  }, 90_000);
});
