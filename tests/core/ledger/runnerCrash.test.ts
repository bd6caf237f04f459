import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { tempDir, track } from './support';

/**
 * Enough published chunks that many group commits happened before the kill. The fixture's
 * deltas that wait for the same commit are stored (and published) as one merged chunk, so
 * each published chunk here is about one commit.
 */
const SEEN_BEFORE_KILL = 100;

describe('kill -9 of the app while a run streams (default durability level)', () => {
  it('every chunk a subscriber saw is in the ledger, as a prefix of the session; the run is closed by repair and the file is intact', async () => {
    const file = path.join(tempDir(), 'ledger.sqlite3');
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'fixtures/runnerCrashChild.ts'), file], { stdio: ['ignore', 'pipe', 'pipe'] });
    let err = '';
    child.stderr.on('data', (d) => (err += d));
    let out = '';
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const closed = new Promise<void>((resolve) => child.stdout.on('end', resolve));
    await new Promise<void>((resolve, reject) => {
      child.stdout.on('data', (d) => {
        out += d;
        if (out.split('\n').length > SEEN_BEFORE_KILL + 2) resolve();
      });
      void exited.then(() => reject(new Error(`the streaming fixture exited before the kill: ${err}`)));
    });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    await closed; // everything the subscriber wrote before the kill
    const [header, ...lines] = out.split('\n').filter(Boolean);
    const { sessionId, runId } = JSON.parse(header!) as { sessionId: string; runId: string };
    const seen = lines.map(Number);
    // Published in seq order, with no gap.
    expect(seen).toEqual(seen.map((_, i) => seen[0]! + i));

    const l = track(openLedger(file));
    expect(l.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(l.repair!.interruptedRuns).toEqual([runId]);
    const stored = l.events.readFrom(sessionId).map((e) => e.seq);
    // The table holds a prefix of the session (1..n without a gap) that covers every chunk seen.
    expect(stored).toEqual(stored.map((_, i) => i + 1));
    expect(stored.length).toBeGreaterThanOrEqual(seen.at(-1)!);
    expect(l.runs.require(runId)).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
  }, 60_000);
});
