/**
 * How hard a commit of the ledger waits for the disk (SQLite `synchronous`, WAL mode).
 *  - `normal` (default): a commit is written to the WAL file before it returns, so it
 *    survives a crash or kill -9 of the app; the WAL is fsynced at checkpoints only, so an
 *    OS crash or power loss may roll back the last commits (the database stays consistent).
 *  - `full`: every commit also fsyncs the WAL, so it survives a power loss too, at the cost
 *    of one fsync per transaction on the thread that commits.
 * The contract each level gives is written in ./README.md.
 */
export type LedgerSync = 'normal' | 'full';

export const LEDGER_SYNC_VARIABLE = 'OPENAI4S_LEDGER_SYNC';

const LEVELS: readonly LedgerSync[] = ['normal', 'full'];

/** Reads `OPENAI4S_LEDGER_SYNC` (unset or empty: `normal`). */
export function resolveLedgerSync(raw: string | undefined): LedgerSync {
  const value = raw?.trim().toLowerCase();
  if (!value) return 'normal';
  if ((LEVELS as readonly string[]).includes(value)) return value as LedgerSync;
  throw new Error(`${LEDGER_SYNC_VARIABLE}=${raw} is not a ledger durability level. Use one of: ${LEVELS.join(', ')} (full also survives a power loss, at one fsync per commit).`);
}
