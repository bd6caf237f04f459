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

/** Evidence in the ledger (the `evidence` table, migration 3). Insert-or-keep: ids are stable. */
export class SqliteEvidenceStore implements EvidenceStore {
  private readonly insert;
  private readonly select;

  constructor(private readonly db: Database.Database) {
    this.insert = db.prepare(
      `INSERT OR IGNORE INTO evidence (session_id, id, kind, title, snippet, envelope, created_at)
       VALUES (@sessionId, @id, @kind, @title, @snippet, @envelope, @createdAt)`,
    );
    this.select = db.prepare('SELECT * FROM evidence WHERE session_id = ? AND id = ?');
  }

  record(input: NewEvidence): EvidenceRecord {
    const rec = toRecord(input);
    const envelope = JSON.stringify(rec.envelope);
    // Inserted: the record as a read would return it (the envelope through JSON), without
    // reading it back (every cell the user runs records one). Kept: the stored one.
    if (this.insert.run({ ...rec, envelope }).changes === 1) return { ...rec, envelope: JSON.parse(envelope) as Record<string, unknown> };
    return this.get(rec.sessionId, rec.id)!;
  }

  get(sessionId: string, id: string): EvidenceRecord | null {
    const row = this.select.get(sessionId, id) as Row | undefined;
    return row ? fromRow(row) : null;
  }

  list(sessionId: string, options: EvidenceListOptions = {}): EvidenceRecord[] {
    const rows = (
      options.kind
        ? this.db.prepare('SELECT * FROM evidence WHERE session_id = ? AND kind = ? ORDER BY created_at, id LIMIT ?').all(sessionId, options.kind, options.limit ?? -1)
        : this.db.prepare('SELECT * FROM evidence WHERE session_id = ? ORDER BY created_at, id LIMIT ?').all(sessionId, options.limit ?? -1)
    ) as Row[];
    return rows.map(fromRow);
  }

  missing(sessionId: string, ids: readonly string[]): string[] {
    return [...new Set(ids)].filter((id) => !this.select.get(sessionId, id));
  }
}
