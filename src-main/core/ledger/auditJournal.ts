import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AuditRecord } from './actionsRepo';
import type { EvidenceJournalRecord } from './evidenceRepo';
import type { SafetyCheckJournalRecord } from './safetyChecksRepo';
import type { UserCellJournalRecord } from './userCellsRepo';

export type { AuditRecord };

/** What a journal holds: a cell's host-call audit rows, and a user cell's record, evidence and review. */
export type JournalRecord = AuditRecord | UserCellJournalRecord | EvidenceJournalRecord | SafetyCheckJournalRecord;

/** The journal is emptied once it is this big and everything in it is committed. */
const TRUNCATE_AT_BYTES = 4 * 1024 * 1024;

/**
 * The host-call audit's write-ahead journal (at the ledger's `normal` level; see README.md).
 * A cell's host call is answered only once its audit rows are durable; committing them to
 * SQLite costs a transaction per call (about 40 syscalls and the WAL frames of four tables
 * and their indexes), which is what bounded a cell's serial calls. Instead, the rows are
 * appended here in one `write` (in the OS's page cache once it returns: they survive a
 * crash or kill -9 of the app, as a commit at `normal` does) and the call is answered; the
 * same rows ride in the ledger's next group commit. A kill -9 may leave rows here that
 * never reached SQLite: the next process that opens the ledger alone replays every journal
 * (`replayAuditJournals`) before crash repair, then deletes them.
 *
 * A cell the user runs in the Notebook tab is answered the same way: its record, its
 * evidence and its pre-run review's row are journaled, then committed by the audit writer
 * thread (or, without it, the next group commit; `Ledger.journaled`).
 *
 * One file per process (`<ledger>-audit-<pid>-<random>.jsonl`), so two processes sharing
 * the ledger never truncate each other's records. Emptied when everything appended is
 * committed and it has grown past TRUNCATE_AT_BYTES; deleted at close.
 */
export class AuditJournal {
  private fd: number | null = null;
  private bytes = 0;
  private uncommitted = 0;
  /** A write whose rows it holds failed to commit: the file is kept for the next open to replay. */
  private keep = false;

  constructor(readonly file: string) {}

  /**
   * Appends the records in one write; `committed` settles once the same rows are in SQLite
   * (or their write failed and went to the fallback file). If it rejects, the rows are in no
   * table: the file is then neither emptied nor deleted, and the next open replays them.
   * Throws if the write fails: the caller then waits for the commit instead.
   */
  append(records: JournalRecord[], committed: Promise<unknown>): void {
    this.appendText(encodeJournal(records), committed);
  }

  /** `append` of records already encoded by `encodeJournal` (a caller that hands the same lines on). */
  appendText(text: string, committed: Promise<unknown>): void {
    this.fd ??= fs.openSync(this.file, 'a', 0o600);
    // The string as it is (no Buffer of it per call); a short write (a signal, a full disk) goes on from where it stopped.
    const length = Buffer.byteLength(text, 'utf8');
    const wrote = fs.writeSync(this.fd, text);
    if (wrote < length) {
      const buf = Buffer.from(text, 'utf8');
      for (let at = wrote; at < length; ) at += fs.writeSync(this.fd, buf, at, length - at);
    }
    this.bytes += length;
    this.uncommitted++;
    const done = () => {
      this.uncommitted--;
      if (this.uncommitted === 0 && !this.keep && this.bytes >= TRUNCATE_AT_BYTES && this.fd !== null) {
        fs.ftruncateSync(this.fd, 0);
        this.bytes = 0;
      }
    };
    committed.then(done, () => {
      this.keep = true;
      done();
    });
  }

  /**
   * A row it holds could not be written to SQLite: the file is kept (not emptied, not
   * deleted at close), so the next open tries the row again. Called from inside the failing
   * commit, before its waiters hear of it (a close may come first).
   */
  keepForReplay(): void {
    this.keep = true;
  }

  /** How many appends wait for their commit (diagnostics and tests). */
  get pending(): number {
    return this.uncommitted;
  }

  /**
   * Closes the file. `committed`: the ledger has just committed its whole queue (its close
   * does that first), so every row here is in SQLite and the file is deleted; otherwise it
   * stays for the next open to replay.
   */
  close(committed: boolean): void {
    try {
      if (this.fd !== null) fs.closeSync(this.fd);
      if (!this.keep && (committed || this.uncommitted === 0)) fs.rmSync(this.file, { force: true });
    } catch {
      // A journal left behind is replayed (idempotently) by the next open; closing the ledger must go on.
    }
    this.fd = null;
  }
}

/** Records as journal lines: one JSON text per record, each ending with a newline. */
export function encodeJournal(records: JournalRecord[]): string {
  let text = '';
  for (const r of records) text += `${JSON.stringify(r)}\n`;
  return text;
}

/** A new journal file for this process, next to the ledger. */
export function newJournalFile(ledgerFile: string): string {
  return `${ledgerFile}-audit-${process.pid}-${randomUUID().slice(0, 8)}.jsonl`;
}

function journalsOf(ledgerFile: string): string[] {
  const dir = path.dirname(ledgerFile);
  const prefix = `${path.basename(ledgerFile)}-audit-`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  return names.filter((n) => n.startsWith(prefix) && n.endsWith('.jsonl')).map((n) => path.join(dir, n));
}

/** Parses a journal; a line cut by the crash (or otherwise unreadable) ends it. */
function readRecords(file: string): JournalRecord[] {
  const out: JournalRecord[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      out.push(JSON.parse(line) as JournalRecord);
    } catch {
      break;
    }
  }
  return out;
}

/**
 * Replays the journals left by processes that died (called by the process that opened the
 * ledger alone, before crash repair): every record is applied in its own savepoint inside
 * `transaction`, a record that cannot be applied (its session was deleted) is skipped, and
 * the files are deleted once the rows are committed.
 */
export function replayAuditJournals(
  ledgerFile: string,
  transaction: (fn: () => void) => void,
  apply: (record: JournalRecord) => void,
): { applied: number; skipped: number } {
  const files = journalsOf(ledgerFile);
  let applied = 0;
  let skipped = 0;
  if (!files.length) return { applied, skipped };
  transaction(() => {
    for (const file of files) {
      for (const record of readRecords(file)) {
        try {
          transaction(() => apply(record));
          applied++;
        } catch {
          skipped++;
        }
      }
    }
  });
  for (const file of files) fs.rmSync(file, { force: true });
  return { applied, skipped };
}
