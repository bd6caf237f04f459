import { randomBytes } from 'node:crypto';
import type { ThinkingStepData } from '../../../src-preload/contract/dataParts';
import type { MemoryOrigin, MemoryRecord, MemoryScope } from '../../../src-preload/contract/memory';
import type { Db } from './database';
import { nowIso } from './util';

interface EventRow {
  seq: number;
  memory_id: string;
  action: 'remember' | 'edit' | 'forget';
  scope: MemoryScope;
  session_id: string | null;
  origin: MemoryOrigin;
  text: string | null;
  run_id: string | null;
  at: string;
}

/** One memory event as stored (migration 6): the history of a memory, oldest first. */
export interface MemoryEvent {
  seq: number;
  memoryId: string;
  action: EventRow['action'];
  scope: MemoryScope;
  sessionId: string | null;
  origin: MemoryOrigin;
  text: string | null;
  runId: string | null;
  at: string;
}

const toEvent = (r: EventRow): MemoryEvent => ({
  seq: r.seq,
  memoryId: r.memory_id,
  action: r.action,
  scope: r.scope,
  sessionId: r.session_id,
  origin: r.origin,
  text: r.text,
  runId: r.run_id,
  at: r.at,
});

/** The memories the events leave standing: each one's first event makes it, later edits change it, a forget ends it. */
export function currentMemories(events: readonly MemoryEvent[]): MemoryRecord[] {
  const byId = new Map<string, MemoryRecord>();
  for (const e of events) {
    if (e.action === 'forget') {
      byId.delete(e.memoryId);
      continue;
    }
    const existing = byId.get(e.memoryId);
    if (!existing) {
      byId.set(e.memoryId, { id: e.memoryId, text: e.text ?? '', scope: e.scope, sessionId: e.sessionId, origin: e.origin, createdAt: e.at, updatedAt: e.at, editedBy: null });
    } else {
      byId.set(e.memoryId, { ...existing, text: e.text ?? existing.text, updatedAt: e.at, editedBy: e.origin });
    }
  }
  return [...byId.values()];
}

export interface NewMemory {
  text: string;
  scope: MemoryScope;
  sessionId: string | null;
  origin: MemoryOrigin;
  runId?: string | null;
}

/** Memories as an append-only event log, and the sessions' plan snapshots (migration 6). */
export class MemoryRepo {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      insert: db.prepare(
        'INSERT INTO memory_events (memory_id, action, scope, session_id, origin, text, run_id, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      ofMemory: db.prepare('SELECT * FROM memory_events WHERE memory_id = ? ORDER BY seq'),
      // Every event of a memory that is data-root scoped or belongs to the session (a memory keeps its scope).
      visible: db.prepare(
        `SELECT * FROM memory_events WHERE memory_id IN (
           SELECT memory_id FROM memory_events WHERE action = 'remember' AND (scope = 'data_root' OR session_id = ?)
         ) ORDER BY seq`,
      ),
      sessionScoped: db.prepare(
        `SELECT * FROM memory_events WHERE memory_id IN (
           SELECT memory_id FROM memory_events WHERE action = 'remember' AND scope = 'session' AND session_id = ?
         ) ORDER BY seq`,
      ),
      insertPlan: db.prepare('INSERT INTO plan_snapshots (session_id, run_id, steps_json, at) VALUES (?, ?, ?, ?)'),
      plan: db.prepare('SELECT steps_json FROM plan_snapshots WHERE session_id = ? ORDER BY seq DESC LIMIT 1'),
    };
  }

  /** Records a new memory; returns it as it now stands. */
  remember(m: NewMemory): MemoryRecord {
    const id = `mem_${randomBytes(8).toString('hex')}`;
    this.q.insert.run(id, 'remember', m.scope, m.sessionId, m.origin, m.text, m.runId ?? null, nowIso());
    return this.get(id)!;
  }

  /** Records a new text for a standing memory (null: no such memory, or it was forgotten). */
  edit(id: string, text: string, origin: MemoryOrigin, runId: string | null = null): MemoryRecord | null {
    const current = this.get(id);
    if (!current) return null;
    this.q.insert.run(id, 'edit', current.scope, current.sessionId, origin, text, runId, nowIso());
    return this.get(id);
  }

  /** Records that a standing memory is forgotten (false: no such memory standing). */
  forget(id: string, origin: MemoryOrigin, runId: string | null = null): boolean {
    const current = this.get(id);
    if (!current) return false;
    this.q.insert.run(id, 'forget', current.scope, current.sessionId, origin, null, runId, nowIso());
    return true;
  }

  /** The memory as it stands now (null: never made, or forgotten). */
  get(id: string): MemoryRecord | null {
    return currentMemories((this.q.ofMemory.all(id) as EventRow[]).map(toEvent))[0] ?? null;
  }

  /** Every event of the memory, oldest first (its whole history, the forget included). */
  history(id: string): MemoryEvent[] {
    return (this.q.ofMemory.all(id) as EventRow[]).map(toEvent);
  }

  /** The memories a session sees: its own and the data root's (no session: the data root's only). */
  visible(sessionId: string | null): MemoryRecord[] {
    return currentMemories((this.q.visible.all(sessionId) as EventRow[]).map(toEvent));
  }

  /** Every event of the session's own (session-scoped) memories: what its export carries. */
  sessionEvents(sessionId: string): MemoryEvent[] {
    return (this.q.sessionScoped.all(sessionId) as EventRow[]).map(toEvent);
  }

  /** Appends the session's whole plan as it now is. */
  savePlan(sessionId: string, runId: string | null, steps: readonly ThinkingStepData[]): void {
    this.q.insertPlan.run(sessionId, runId, JSON.stringify(steps), nowIso());
  }

  /** The session's current plan (empty when it never had one). */
  plan(sessionId: string): ThinkingStepData[] {
    const row = this.q.plan.get(sessionId) as { steps_json: string } | undefined;
    return row ? (JSON.parse(row.steps_json) as ThinkingStepData[]) : [];
  }
}
