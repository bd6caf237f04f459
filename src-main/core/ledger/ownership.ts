import fs from 'node:fs';
import Database from 'better-sqlite3';
import { sqliteOptions } from '../config/sqlite';
import { errorMessage } from '../shared/errorMessage';

/**
 * Which processes have the ledger open, decided by the operating system instead of a pid
 * file. Crash repair declares every `processing` run interrupted, so it must only run when
 * no other live process has the ledger open: the app and a CLI `run` (or two app
 * instances) both write runs, and a short `openai4s sessions` must never break either.
 *
 * The mechanism is SQLite's own file locking (POSIX fcntl locks underneath) on a small lock
 * database next to the ledger, `<ledger>.lock`, in rollback-journal mode (in WAL mode
 * readers would not block an exclusive writer):
 *  - every process holds a SHARED lock on it (an open read transaction) for as long as it
 *    has the ledger open;
 *  - at open, a process first asks, without waiting, for an EXCLUSIVE lock, which SQLite
 *    grants only when no other connection holds SHARED: that is, when this process is the
 *    only one with the ledger open, so whatever is still `processing` belongs to a dead one.
 *    It repairs while holding EXCLUSIVE (other openers wait), then steps down to SHARED.
 *
 * The OS drops a process's locks when it dies (kill -9 and power loss included), so a dead
 * owner frees the ledger at once and a reused pid means nothing. Nobody ever writes,
 * deletes or replaces the lock file: a process that is not alone can only wait or share.
 * Between stepping down and taking SHARED another opener may take EXCLUSIVE; that is safe,
 * because the stepping-down process has not started any work yet (its open has not returned).
 */
export interface LedgerLock {
  /** True when no other live process had the ledger open: this one may run crash repair. */
  readonly alone: boolean;
  /** Ends the exclusive phase and holds the ledger shared until `release`. */
  share(): void;
  /** Drops the lock (the ledger is closed). */
  release(): void;
}

/** How long an opener waits for another process's crash repair to finish before giving up. */
export const LOCK_WAIT_MS = 30_000;

/** Reading the schema is enough to take (and, inside a transaction, keep) a SHARED lock. */
const TOUCH = 'SELECT count(*) FROM sqlite_master';

export function lockFileOf(ledgerFile: string): string {
  return `${ledgerFile}.lock`;
}

export function lockLedger(ledgerFile: string, waitMs = LOCK_WAIT_MS): LedgerLock {
  const file = lockFileOf(ledgerFile);
  // Created empty and private if missing; never truncated (flag 'a'), never removed.
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  const db = new Database(file, sqliteOptions());
  let alone: boolean;
  try {
    db.pragma('busy_timeout = 0');
    try {
      db.exec('BEGIN EXCLUSIVE');
      alone = true;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_BUSY') throw error;
      alone = false;
    }
  } catch (error) {
    db.close();
    throw error;
  }
  let state: 'exclusive' | 'unlocked' | 'shared' | 'released' = alone ? 'exclusive' : 'unlocked';
  return {
    alone,
    share() {
      if (state === 'shared' || state === 'released') return;
      if (state === 'exclusive') db.exec('COMMIT');
      // Another opener may be repairing right now (it holds EXCLUSIVE): wait for it.
      db.pragma(`busy_timeout = ${waitMs}`);
      try {
        db.exec('BEGIN');
        db.prepare(TOUCH).get();
      } catch (error) {
        if (db.inTransaction) db.exec('ROLLBACK');
        db.close();
        state = 'released';
        throw new Error(
          `Could not lock the ledger ${ledgerFile} within ${waitMs} ms (${errorMessage(error)}): another OpenAI4S process is still repairing it. ` +
            'Wait for it to finish, or stop the other openai4s process, and try again.',
        );
      }
      state = 'shared';
    },
    release() {
      if (state === 'released') return;
      state = 'released';
      // Closing the connection drops the lock; a dying process drops it the same way.
      db.close();
    },
  };
}
