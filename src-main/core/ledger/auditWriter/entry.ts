/**
 * The audit writer thread: commits to SQLite the rows of journal records already durable in
 * the audit journal (a cell's answered host calls; a notebook cell's record, evidence and
 * review), on a connection of its own, so the main thread (Electron's main process) does
 * not spend a burst of calls or cells inserting rows. See auditWriter.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { errorMessage } from '../../shared/errorMessage';
import { ActionsRepo } from '../actionsRepo';
import type { JournalRecord } from '../auditJournal';
import { SqliteEvidenceStore } from '../evidenceRepo';
import { applyJournalRecord, type JournalTargets } from '../journalApply';
import { SafetyChecksRepo } from '../safetyChecksRepo';
import { UserCellsRepo } from '../userCellsRepo';
import type { FromWriter, ToWriter, WriterData } from './protocol';

const port = parentPort;
if (!port) throw new Error('the audit writer runs only as a worker thread');
const data = workerData as WriterData;
const db = new Database(data.file, { ...data.sqlite, fileMustExist: true });
// As the main connection (database.ts); the WAL mode is the file's. Checkpoints stay with
// the ledger's checkpointer (checkpointer.ts), never inside this thread's commits.
db.pragma('synchronous = NORMAL');
db.pragma('foreign_keys = ON');
db.pragma('busy_timeout = 5000');
db.pragma('wal_autocheckpoint = 0');
const targets: JournalTargets = { actions: new ActionsRepo(db), userCells: new UserCellsRepo(db), evidence: new SqliteEvidenceStore(db), safety: new SafetyChecksRepo(db) };
const inSavepoint = db.transaction((fn: () => void) => fn());

function apply(entry: string): void {
  for (const line of entry.split('\n')) if (line) applyJournalRecord(targets, JSON.parse(line) as JournalRecord);
}

/** All entries in one savepoint; if one throws, each in its own, so only the failing one is lost (a record applied twice is applied once). */
function applyBatch(entries: string[]): [number, string][] {
  const failed: [number, string][] = [];
  try {
    inSavepoint(() => entries.forEach(apply));
    return failed;
  } catch {
    // one failed: each alone, below
  }
  entries.forEach((entry, i) => {
    try {
      inSavepoint(() => apply(entry));
    } catch (error) {
      failed.push([i, errorMessage(error)]);
    }
  });
  return failed;
}

const reply = (message: FromWriter) => data.replies.postMessage(message);

port.on('message', (message: ToWriter) => {
  if (message.type === 'close') {
    try {
      db.close();
    } finally {
      Atomics.store(data.state, 1, 1);
      Atomics.notify(data.state, 1);
      port.close();
      data.replies.close();
    }
    return;
  }
  let failed: [number, string][] = [];
  let busy: string | null = null;
  try {
    db.transaction(() => {
      failed = applyBatch(message.entries);
    }).immediate();
  } catch (error) {
    // The transaction itself failed (the ledger stayed locked past busy_timeout): nothing of it is written.
    failed = [];
    busy = errorMessage(error);
  }
  // The reply is queued before the counter moves: a main thread woken by the counter finds it.
  reply({ type: 'done', batch: message.batch, failed, busy });
  Atomics.store(data.state, 0, message.batch);
  Atomics.notify(data.state, 0);
});

reply({ type: 'ready' });
