import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { afterLines, linesAfterFirst, runUntilKilled } from '../../support/killChild';

const BURST = 5_000;
/** Killed once the cell has seen this many answers: well inside the burst. */
const KILL_AFTER = 1_000;

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** Runs the burst fixture in a child process and kills it with SIGKILL mid-burst; returns the keys the cell saw answered. */
async function killMidBurst(file: string): Promise<{ runId: string; writer: boolean; answered: string[] }> {
  const { first, printed } = linesAfterFirst(await runUntilKilled(path.join(import.meta.dirname, 'fixtures/hostCallBurstChild.ts'), [file, String(BURST)], afterLines(KILL_AFTER)));
  const { runId, writer } = JSON.parse(first) as { runId: string; writer: boolean };
  return { runId, writer, answered: printed.filter((l) => /^k\d+$/.test(l)) };
}

describe('host-call audit under kill -9', () => {
  it('every call the cell saw answered has its durable audit row (replayed from the audit journal at open), and the ledger is intact', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-hostcrash-'));
    dirs.push(dir);
    const file = path.join(dir, 'ledger.sqlite3');
    const { runId, writer, answered } = await killMidBurst(file);
    expect(writer).toBe(true); // the rows were being committed by the audit writer thread when it died
    expect(answered.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(answered.length).toBeLessThan(BURST); // killed during the burst, not after it

    // The answers were given once each call's rows were in the audit journal (the default
    // level); the process died without closing, so its journal is still there.
    const journals = () => fs.readdirSync(dir).filter((n) => n.startsWith('ledger.sqlite3-audit-'));
    expect(journals()).toHaveLength(1);
    const ledger = openLedger(file);
    try {
      // The open replayed it (rows that never reached SQLite go in; those that did are unchanged) and deleted it.
      expect(ledger.auditReplay).toMatchObject({ skipped: 0 });
      expect(ledger.auditReplay!.applied).toBeGreaterThan(0);
      expect(journals()).toEqual([]);
      expect(ledger.db.pragma('integrity_check', { simple: true })).toBe('ok');
      const rows = ledger.db
        .prepare(
          `SELECT e.arguments_json AS args, e.result_json AS result FROM action_events e JOIN action_groups g ON g.id = e.group_id WHERE g.run_id = ?`,
        )
        .all(runId) as { args: string; result: string | null }[];
      const recorded = new Map(rows.map((r) => [(JSON.parse(r.args) as { key: string }).key, r.result ? (JSON.parse(r.result) as { status: string; text: string }) : null]));
      const missing = answered.filter((key) => recorded.get(key)?.status !== 'ok' || recorded.get(key)?.text !== `note ${key}`);
      expect(missing).toEqual([]);
    } finally {
      ledger.close();
    }
  }, 120_000);
});
