/**
 * The messages between the main thread and the audit writer thread (entry.ts). Replies
 * come on a port of their own (`WriterData.replies`), so a main-thread read that waits for
 * the writer can take them synchronously (`receiveMessageOnPort`).
 */
import type { MessagePort } from 'node:worker_threads';
import type Database from 'better-sqlite3';

export interface WriterData {
  /** The ledger file (the writer opens its own connection; the schema is already migrated). */
  file: string;
  sqlite: Database.Options;
  /** [0]: the last batch the writer has finished (committed, failed or left to the main thread); [1]: 1 once its connection is closed. */
  state: Int32Array;
  replies: MessagePort;
}

export type ToWriter =
  /** Each entry is one journal append: JSON lines, each a journal record (auditJournal.ts `JournalRecord`). */
  | { type: 'batch'; batch: number; entries: string[] }
  | { type: 'close' };

export type FromWriter =
  | { type: 'ready' }
  /** `failed`: entries (by index) whose rows could not be written, and why; `busy`: nothing was written (the ledger stayed locked), the main thread writes the batch. */
  | { type: 'done'; batch: number; failed: [number, string][]; busy: string | null };
