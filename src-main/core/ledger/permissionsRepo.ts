import { randomUUID } from 'node:crypto';
import type { Db } from './database';
import { notFound, nowIso } from './util';

export type PermissionStatus = 'pending' | 'allowed_once' | 'allowed_session' | 'denied' | 'expired';

export interface PermissionRequestRecord {
  id: string;
  sessionId: string;
  runId: string | null;
  generationId: string | null;
  method: string;
  target: string;
  reason: string;
  status: PermissionStatus;
  createdAt: string;
  decidedAt: string | null;
}

interface Row {
  id: string;
  session_id: string;
  run_id: string | null;
  generation_id: string | null;
  method: string;
  target: string;
  reason: string;
  status: PermissionStatus;
  created_at: string;
  decided_at: string | null;
}

const toRecord = (r: Row): PermissionRequestRecord => ({
  id: r.id,
  sessionId: r.session_id,
  runId: r.run_id,
  generationId: r.generation_id,
  method: r.method,
  target: r.target,
  reason: r.reason,
  status: r.status,
  createdAt: r.created_at,
  decidedAt: r.decided_at,
});

/** Approval requests and their decisions, persisted (a decision is audit data). */
export class PermissionsRepo {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      insert: db.prepare(
        `INSERT INTO permission_requests (id, session_id, run_id, generation_id, method, target, reason, status, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 'pending', ?)`,
      ),
      decide: db.prepare(`UPDATE permission_requests SET status = ?, decided_at = ? WHERE id = ? AND status = 'pending'`),
      get: db.prepare('SELECT * FROM permission_requests WHERE id = ?'),
      pending: db.prepare(`SELECT * FROM permission_requests WHERE session_id = ? AND status = 'pending' ORDER BY created_at`),
      expireAll: db.prepare(`UPDATE permission_requests SET status = 'expired', decided_at = ? WHERE status = 'pending'`),
    };
  }

  request(input: { sessionId: string; runId?: string; generationId?: string; method: string; target: string; reason: string }): PermissionRequestRecord {
    const id = randomUUID();
    this.q.insert.run(id, input.sessionId, input.runId ?? null, input.generationId ?? null, input.method, input.target, input.reason, nowIso());
    return this.require(id);
  }

  /** Decides a pending request once; a request already decided or expired is refused. */
  decide(id: string, status: Exclude<PermissionStatus, 'pending' | 'expired'>): PermissionRequestRecord {
    if (this.q.decide.run(status, nowIso(), id).changes === 0) {
      const r = this.require(id);
      throw notFound('pending permission request', id, `It is already ${r.status}.`);
    }
    return this.require(id);
  }

  require(id: string): PermissionRequestRecord {
    const row = this.q.get.get(id) as Row | undefined;
    if (!row) throw notFound('permission request', id, 'Pending requests are listed per session.');
    return toRecord(row);
  }

  pending(sessionId: string): PermissionRequestRecord[] {
    return (this.q.pending.all(sessionId) as Row[]).map(toRecord);
  }

  /** At open: the calls that waited for these decisions died with the old process. */
  expirePending(): number {
    return this.q.expireAll.run(nowIso()).changes;
  }
}
