import { randomUUID } from 'node:crypto';
import type { Db } from './database';
import { nowIso, parseJson } from './util';

export type KernelLanguage = 'python' | 'r';

export interface KernelGenerationRecord {
  id: string;
  sessionId: string;
  language: KernelLanguage;
  /** 1, 2, ... per session and language: each (re)spawn is a new generation. */
  generation: number;
  pid: number | null;
  env: unknown;
  startedAt: string;
  endedAt: string | null;
  endReason: string | null;
}

interface Row {
  id: string;
  session_id: string;
  language: KernelLanguage;
  generation: number;
  pid: number | null;
  env_json: string | null;
  started_at: string;
  ended_at: string | null;
  end_reason: string | null;
}

const toRecord = (r: Row): KernelGenerationRecord => ({
  id: r.id,
  sessionId: r.session_id,
  language: r.language,
  generation: r.generation,
  pid: r.pid,
  env: parseJson(r.env_json),
  startedAt: r.started_at,
  endedAt: r.ended_at,
  endReason: r.end_reason,
});

/** Kernel generations: what artifacts, approvals and tokens are bound to. */
export class KernelsRepo {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = {
      next: db.prepare('SELECT COALESCE(MAX(generation), 0) + 1 FROM kernel_generations WHERE session_id = ? AND language = ?').pluck(),
      insert: db.prepare(
        'INSERT INTO kernel_generations (id, session_id, language, generation, pid, env_json, started_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
      ),
      end: db.prepare('UPDATE kernel_generations SET ended_at = ?, end_reason = ? WHERE id = ? AND ended_at IS NULL'),
      get: db.prepare('SELECT * FROM kernel_generations WHERE id = ?'),
      bySession: db.prepare('SELECT * FROM kernel_generations WHERE session_id = ? ORDER BY language, generation'),
      open: db.prepare('SELECT id FROM kernel_generations WHERE ended_at IS NULL').pluck(),
    };
  }

  /** `id` is the supervisor's generation id when there is one, so artifacts and cells name the same generation. */
  start(sessionId: string, language: KernelLanguage, pid: number | null, env: unknown = null, id: string = randomUUID()): KernelGenerationRecord {
    return this.db.transaction(() => {
      const generation = this.q.next.get(sessionId, language) as number;
      this.q.insert.run(id, sessionId, language, generation, pid, env === null ? null : JSON.stringify(env), nowIso());
      return toRecord(this.q.get.get(id) as Row);
    }).immediate();
  }

  end(id: string, reason: string): void {
    this.q.end.run(nowIso(), reason, id);
  }

  find(id: string): KernelGenerationRecord | null {
    const row = this.q.get.get(id) as Row | undefined;
    return row ? toRecord(row) : null;
  }

  listBySession(sessionId: string): KernelGenerationRecord[] {
    return (this.q.bySession.all(sessionId) as Row[]).map(toRecord);
  }

  openIds(): string[] {
    return this.q.open.all() as string[];
  }
}
