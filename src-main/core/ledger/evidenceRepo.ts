import type Database from 'better-sqlite3';
import type { EvidenceKind, EvidenceRecord } from '../../../src-preload/contract/evidence';
import { toRecord, type EvidenceListOptions, type EvidenceStore, type NewEvidence } from '../records/evidenceStore';

interface Row {
  session_id: string;
  id: string;
  kind: EvidenceKind;
  title: string;
  snippet: string;
  envelope: string;
  created_at: string;
}

const fromRow = (r: Row): EvidenceRecord => ({
  id: r.id,
  sessionId: r.session_id,
  kind: r.kind,
  title: r.title,
  snippet: r.snippet,
  envelope: JSON.parse(r.envelope) as Record<string, unknown>,
  createdAt: r.created_at,
});

/** An evidence row as the ledger's journal carries it (auditJournal.ts), before its commit. */
export interface EvidenceJournalRecord {
  k: 'evidence';
  row: Row;
}

/** Evidence in the ledger (the `evidence` table, migration 3). Insert-or-keep: ids are stable. */
export class SqliteEvidenceStore implements EvidenceStore {
  private readonly insert;
  private readonly select;

  /** `beforeRead`: commits rows still queued for a group commit (a user cell's evidence may wait there, journaled). */
  constructor(
    private readonly db: Database.Database,
    private readonly beforeRead: () => void = () => undefined,
  ) {
    this.insert = db.prepare(
      `INSERT OR IGNORE INTO evidence (session_id, id, kind, title, snippet, envelope, created_at)
       VALUES (@session_id, @id, @kind, @title, @snippet, @envelope, @created_at)`,
    );
    this.select = db.prepare('SELECT * FROM evidence WHERE session_id = ? AND id = ?');
  }

  record(input: NewEvidence): EvidenceRecord {
    const { row } = this.prepare(input);
    // Inserted: the record as a read would return it (the envelope through JSON), without
    // reading it back. Kept: the stored one.
    if (this.insert.run(row).changes === 1) return fromRow(row);
    return this.get(input.sessionId, row.id)!;
  }

  /**
   * The row and the write that stores it; evidence with its id already stored is kept (the
   * ids are stable, so it is the same evidence). No record is parsed back: a user cell's
   * evidence (every cell the user runs records one) needs only its id.
   */
  prepare(input: NewEvidence): { id: string; row: Row; write: () => void; journal: EvidenceJournalRecord } {
    const rec = toRecord(input);
    const row: Row = { session_id: rec.sessionId, id: rec.id, kind: rec.kind, title: rec.title, snippet: rec.snippet, envelope: JSON.stringify(rec.envelope), created_at: rec.createdAt };
    return { id: row.id, row, write: () => void this.insert.run(row), journal: { k: 'evidence', row } };
  }

  applyJournal(entry: EvidenceJournalRecord): void {
    this.insert.run(entry.row);
  }

  get(sessionId: string, id: string): EvidenceRecord | null {
    this.beforeRead();
    const row = this.select.get(sessionId, id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  list(sessionId: string, options: EvidenceListOptions = {}): EvidenceRecord[] {
    this.beforeRead();
    const rows = (
      options.kind
        ? this.db.prepare('SELECT * FROM evidence WHERE session_id = ? AND kind = ? ORDER BY created_at, id LIMIT ?').all(sessionId, options.kind, options.limit ?? -1)
        : this.db.prepare('SELECT * FROM evidence WHERE session_id = ? ORDER BY created_at, id LIMIT ?').all(sessionId, options.limit ?? -1)
    ) as Row[];
    return rows.map(fromRow);
  }

  missing(sessionId: string, ids: readonly string[]): string[] {
    this.beforeRead();
    return [...new Set(ids)].filter((id) => !this.select.get(sessionId, id));
  }
}
