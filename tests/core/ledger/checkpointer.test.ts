import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { tempLedger, track } from './support';

// The WAL is copied back into the database file by a worker thread (checkpointer.ts), not
// inside a commit on the main thread; if the worker cannot run, SQLite's own automatic
// checkpoint comes back, so the WAL never grows without bound.
const until = async (what: () => boolean, ms = 10_000): Promise<void> => {
  const end = Date.now() + ms;
  while (!what()) {
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 10));
  }
};

function writeRows(ledger: ReturnType<typeof tempLedger>, sessionId: string, count: number): void {
  for (let i = 0; i < count; i++) ledger.events.appendSync(sessionId, null, { type: 'text-delta', id: 't', delta: `${i} ${'x'.repeat(2000)}` });
}

describe('WAL checkpoints off the main thread', () => {
  it('the main connection never checkpoints; the worker does once the WAL passes its threshold, and the WAL stays bounded', async () => {
    const ledger = tempLedger({ checkpoints: { walPages: 16, checkIntervalMs: 5 } });
    expect(ledger.db.pragma('wal_autocheckpoint', { simple: true })).toBe(0);
    const session = ledger.createSession('wal');
    const pageBytes = (ledger.db.pragma('page_size', { simple: true }) as number) + 24;
    let largest = 0;
    for (let round = 0; round < 8; round++) {
      writeRows(ledger, session.id, 40);
      const before = ledger.checkpointer!.completed;
      await until(() => ledger.checkpointer!.completed > before);
      largest = Math.max(largest, fs.statSync(`${ledger.file}-wal`).size);
    }
    expect(ledger.checkpointer!.failure).toBeNull();
    // Restarted after each checkpoint: about one round's pages, never eight rounds' worth.
    const oneRound = fs.statSync(`${ledger.file}-wal`).size;
    expect(largest).toBeLessThan(3 * Math.max(oneRound, 120 * pageBytes));
    expect(ledger.events.readFrom(session.id)).toHaveLength(320);
    ledger.close();
    const again = track(openLedger(ledger.file));
    expect(again.db.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(again.events.readFrom(session.id)).toHaveLength(320);
  });

  it('a worker that cannot start turns SQLite’s automatic checkpoint back on', async () => {
    const ledger = tempLedger({ checkpoints: { walPages: 16, checkIntervalMs: 5, driver: '/nonexistent/better-sqlite3.js' } });
    const session = ledger.createSession('fallback');
    writeRows(ledger, session.id, 40);
    await until(() => ledger.checkpointer!.failure !== null);
    expect(ledger.checkpointer!.failure).toMatch(/Cannot find module|exited/);
    expect(ledger.db.pragma('wal_autocheckpoint', { simple: true })).toBe(16);
    writeRows(ledger, session.id, 40);
    expect(ledger.events.readFrom(session.id)).toHaveLength(80);
  });

  it('checkpoints: false leaves the checkpoints to SQLite on the main connection', () => {
    const ledger = tempLedger({ checkpoints: false });
    expect(ledger.checkpointer).toBeNull();
    expect(ledger.db.pragma('wal_autocheckpoint', { simple: true })).toBe(1000);
  });
});

describe('closing a ledger whose worker has checkpointed', () => {
  it('leaves no WAL behind: the main connection is the last one and copies the rest', async () => {
    const ledger = tempLedger({ checkpoints: { walPages: 16, checkIntervalMs: 5 } });
    const session = ledger.createSession('close');
    writeRows(ledger, session.id, 40);
    await until(() => ledger.checkpointer!.completed > 0);
    writeRows(ledger, session.id, 5);
    ledger.close();
    expect(fs.existsSync(`${ledger.file}-wal`)).toBe(false);
    expect(track(openLedger(ledger.file)).events.readFrom(session.id)).toHaveLength(45);
  });
});

/** Waits for the moment a checkpoint has been handed to the worker (the shared flag is up); returns the flags. */
async function checkpointHandedOver(ledger: ReturnType<typeof tempLedger>): Promise<Int32Array> {
  const state = (ledger.checkpointer as unknown as { state: Int32Array }).state;
  const end = Date.now() + 10_000;
  while (Atomics.load(state, 0) === 0 && Date.now() < end) await new Promise((r) => setImmediate(r));
  expect(Atomics.load(state, 0)).toBe(1);
  return state;
}

describe('closing a ledger while its worker checkpoints', () => {
  it('waits for the checkpoint: when close returns, the WAL is gone and nothing in the folder changes afterwards', async () => {
    for (let attempt = 0; attempt < 5; attempt++) {
      const ledger = tempLedger({ checkpoints: { walPages: 16, checkIntervalMs: 1 } });
      const session = ledger.createSession('close during checkpoint');
      writeRows(ledger, session.id, 400);
      await checkpointHandedOver(ledger);
      const dir = ledger.file.slice(0, ledger.file.lastIndexOf('/'));
      ledger.close();
      // Watched from the moment close returns: a connection closing late would make and
      // remove the WAL and shared-memory files here.
      const changes: string[] = [];
      const watcher = fs.watch(dir, (event, name) => changes.push(`${event} ${name}`));
      expect(fs.existsSync(`${ledger.file}-wal`)).toBe(false);
      await new Promise((r) => setTimeout(r, 150));
      watcher.close();
      expect(changes).toEqual([]);
      expect(track(openLedger(ledger.file)).events.readFrom(session.id)).toHaveLength(400);
    }
  });
});

describe('waiting for a running checkpoint without blocking', () => {
  it('settled() resolves once the worker has closed its connection, with the thread free meanwhile', async () => {
    const ledger = tempLedger({ checkpoints: { walPages: 16, checkIntervalMs: 1 } });
    const session = ledger.createSession('settled');
    writeRows(ledger, session.id, 400);
    const state = await checkpointHandedOver(ledger);
    await ledger.checkpointer!.settled();
    expect(Atomics.load(state, 0)).toBe(0);
    await ledger.checkpointer!.settled(); // nothing running: at once
  });
});
