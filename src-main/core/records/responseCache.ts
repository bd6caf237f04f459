import { createHash } from 'node:crypto';

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
