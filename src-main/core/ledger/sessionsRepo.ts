import { randomUUID } from 'node:crypto';
import { AppError } from '../../../src-preload/contract/errors';
import type { SessionSummary } from '../../../src-preload/contract/sessions';
import type { Db } from './database';
import { notFound, nowIso } from './util';

interface SessionRow {
  id: string;
  title: string;
  created_at: string;
  updated_at: string;
  revision: number;
}

const toSummary = (r: SessionRow): SessionSummary => ({
  id: r.id,
  title: r.title,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  revision: r.revision,
});

export const DEFAULT_SESSION_TITLE = 'New session';

/** Sessions: create, list newest first, rename under a revision check, delete as a tombstone. */
export class SessionsRepo {
  private readonly q;
  /**
   * Sessions `exists` found live, until deleted through this repo (the ledger's one memory of
   * them: the event log asks it too). One deleted by another process sharing the ledger is
   * not seen: a row then written for it fails at its commit like any row whose session is
   * gone (ledger README).
   */
  private readonly live = new Set<string>();

  constructor(private readonly db: Db) {
    this.q = {
      insert: db.prepare('INSERT INTO sessions (id, title, created_at, updated_at, revision) VALUES (?, ?, ?, ?, 1)'),
      get: db.prepare('SELECT id, title, created_at, updated_at, revision FROM sessions WHERE id = ? AND deleted_at IS NULL'),
      exists: db.prepare('SELECT 1 FROM sessions WHERE id = ? AND deleted_at IS NULL').pluck(),
      list: db.prepare(
        'SELECT id, title, created_at, updated_at, revision FROM sessions WHERE deleted_at IS NULL ORDER BY updated_at DESC, rowid DESC',
      ),
      rename: db.prepare('UPDATE sessions SET title = ?, updated_at = ?, revision = revision + 1 WHERE id = ?'),
      bump: db.prepare('UPDATE sessions SET updated_at = ?, revision = revision + 1 WHERE id = ?'),
      touch: db.prepare('UPDATE sessions SET updated_at = ? WHERE id = ?'),
      tombstone: db.prepare('UPDATE sessions SET deleted_at = ?, updated_at = ? WHERE id = ? AND deleted_at IS NULL'),
    };
  }

  create(title = DEFAULT_SESSION_TITLE): SessionSummary {
    const now = nowIso();
    const id = randomUUID();
    this.q.insert.run(id, title, now, now);
    return { id, title, createdAt: now, updatedAt: now, revision: 1 };
  }

  find(id: string): SessionSummary | null {
    const row = this.q.get.get(id) as SessionRow | undefined;
    return row ? toSummary(row) : null;
  }

  /**
   * Whether the session exists and is not deleted: asked before a chunk is appended and
   * before a notebook cell's records are written (a cell may end after its session was
   * deleted). Once found, answered from memory: reading the row cost a trivial cell 10-17 us
   * of the main thread.
   */
  exists(id: string): boolean {
    if (this.live.has(id)) return true;
    if (!this.q.exists.get(id)) return false;
    this.live.add(id);
    return true;
  }

  /** How many sessions `exists` remembers (the lifecycle test: none once they are deleted). */
  get remembered(): number {
    return this.live.size;
  }

  /** The session, or a `not_found` error that says how to find a valid id. */
  require(id: string): SessionSummary {
    const s = this.find(id);
    if (!s) throw notFound('session', id, 'List the sessions with `openai4s sessions`.');
    return s;
  }

  list(): SessionSummary[] {
    return (this.q.list.all() as SessionRow[]).map(toSummary);
  }

  /** Refuses a stale `expectedRevision` with `revision_conflict`. */
  checkRevision(session: SessionSummary, expectedRevision: number | undefined): void {
    if (expectedRevision !== undefined && expectedRevision !== session.revision) {
      throw new AppError(
        'revision_conflict',
        `Session ${session.id} is at revision ${session.revision}, but the request expected revision ${expectedRevision}: ` +
          'it changed since you loaded it. Reload the session and retry.',
      );
    }
  }

  rename(id: string, title: string, expectedRevision?: number): SessionSummary {
    return this.db.transaction(() => {
      const s = this.require(id);
      this.checkRevision(s, expectedRevision);
      this.q.rename.run(title, nowIso(), id);
      return this.require(id);
    }).immediate();
  }

  /** A mutation of the conversation (a submitted message): new revision, new updated_at. */
  bump(id: string): void {
    this.q.bump.run(nowIso(), id);
  }

  touch(id: string, at = nowIso()): void {
    this.q.touch.run(at, id);
  }

  /** Hides the session; its runs and append-only stream stay in the ledger as audit data. */
  delete(id: string): void {
    this.live.delete(id);
    const now = nowIso();
    if (this.q.tombstone.run(now, now, id).changes === 0) this.require(id);
  }
}
