import type Database from 'better-sqlite3';
import { sha256Hex, type CachedEntry, type ResponseCache } from '../records/responseCache';

interface Row {
  request_url: string;
  status: number;
  content_type: string | null;
  headers: string;
  retrieved_at: string;
  sha256: string;
  expires_at: number;
  bytes: Buffer;
}

/** The science response cache in the ledger (migration 3); a body is verified against its hash on read. */
export class SqliteResponseCache implements ResponseCache {
  private readonly select;
  private readonly putBody;
  private readonly putEntry;

  constructor(db: Database.Database) {
    this.select = db.prepare(
      `SELECT c.request_url, c.status, c.content_type, c.headers, c.retrieved_at, c.sha256, c.expires_at, b.bytes
       FROM science_response_cache c JOIN science_response_bodies b ON b.sha256 = c.sha256 WHERE c.key = ?`,
    );
    this.putBody = db.prepare('INSERT OR IGNORE INTO science_response_bodies (sha256, bytes) VALUES (?, ?)');
    this.putEntry = db.prepare(
      `INSERT OR REPLACE INTO science_response_cache (key, request_url, status, content_type, headers, retrieved_at, sha256, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  get(key: string, now: number) {
    const row = this.select.get(key) as Row | undefined;
    if (!row || row.expires_at <= now) return null;
    // A body that no longer matches its name is treated as absent, never served.
    if (sha256Hex(row.bytes) !== row.sha256) return null;
    return {
      entry: {
        requestUrl: row.request_url,
        status: row.status,
        contentType: row.content_type,
        headers: JSON.parse(row.headers) as Record<string, string>,
        retrievedAt: row.retrieved_at,
        sha256: row.sha256,
        expiresAt: row.expires_at,
      },
      bytes: row.bytes,
    };
  }

  put(key: string, entry: CachedEntry, bytes: Buffer): void {
    this.putBody.run(entry.sha256, bytes);
    this.putEntry.run(key, entry.requestUrl, entry.status, entry.contentType, JSON.stringify(entry.headers), entry.retrievedAt, entry.sha256, entry.expiresAt);
  }
}
