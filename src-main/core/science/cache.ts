import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';

/** What the cache remembers of one answer: enough to rebuild its provenance exactly. */
export interface CachedEntry {
  requestUrl: string;
  status: number;
  contentType: string | null;
  headers: Record<string, string>;
  /** The time the bytes were fetched from the network (kept as is on a cache hit). */
  retrievedAt: string;
  sha256: string;
  /** Epoch ms after which the entry is stale. */
  expiresAt: number;
}

/**
 * A content-addressed response cache: entries map a request key to a body hash, bodies
 * are stored once per hash (two requests answering identical bytes share one body).
 */
export interface ResponseCache {
  get(key: string, now: number): { entry: CachedEntry; bytes: Buffer } | null;
  put(key: string, entry: CachedEntry, bytes: Buffer): void;
}

export function sha256Hex(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

/** The request identity: method, full URL (with query) and body. */
export function cacheKey(method: string, url: string, body?: string): string {
  return sha256Hex(Buffer.from(`${method} ${url}\n${body ?? ''}`, 'utf8'));
}

export class MemoryResponseCache implements ResponseCache {
  private entries = new Map<string, CachedEntry>();
  private bodies = new Map<string, Buffer>();

  get(key: string, now: number) {
    const entry = this.entries.get(key);
    if (!entry || entry.expiresAt <= now) return null;
    const bytes = this.bodies.get(entry.sha256);
    return bytes ? { entry, bytes } : null;
  }

  put(key: string, entry: CachedEntry, bytes: Buffer): void {
    if (!this.bodies.has(entry.sha256)) this.bodies.set(entry.sha256, Buffer.from(bytes));
    this.entries.set(key, entry);
  }

  /** Distinct bodies held (tests check that identical bytes are stored once). */
  get bodyCount(): number {
    return this.bodies.size;
  }
}

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

/** The cache in SQLite (tables of PROVENANCE_SCHEMA_SQL); a body is verified against its hash on read. */
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
