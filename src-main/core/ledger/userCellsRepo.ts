import { randomUUID } from 'node:crypto';
import type { KernelCellResult, KernelLanguage } from '../../../src-preload/contract/kernel';
import type { UserCellHostCall, UserCellRecord } from '../../../src-preload/contract/notebook';
import type { Db } from './database';

/** What is recorded of a finished user cell (migration 10); the version is assigned here. */
export interface UserCellInput {
  sessionId: string;
  /** The notebook cell it is a version of; null starts a new cell. */
  cellKey: string | null;
  language: KernelLanguage;
  code: string;
  result: KernelCellResult;
  evidenceId: string | null;
  /** Its host calls with their answers (kept in result_json beside the result). */
  hostCalls?: UserCellHostCall[];
  startedAt: string;
  finishedAt: string;
}

interface Row {
  id: string;
  session_id: string;
  cell_key: string;
  version: number;
  language: KernelLanguage;
  code: string;
  status: UserCellRecord['status'];
  generation: string | null;
  result_json: string;
  evidence_id: string | null;
  started_at: string;
  finished_at: string;
}

const toRecord = (r: Row): UserCellRecord => {
  const { hostCalls = [], ...result } = JSON.parse(r.result_json) as KernelCellResult & { hostCalls?: UserCellHostCall[] };
  return {
    id: r.id,
    sessionId: r.session_id,
    cellKey: r.cell_key,
    version: r.version,
    language: r.language,
    code: r.code,
    status: r.status,
    generation: r.generation,
    result,
    evidenceId: r.evidence_id,
    hostCalls,
    startedAt: r.started_at,
    finishedAt: r.finished_at,
  };
};

/** The Notebook tab's user cells: every version, append-only (migration 10). */
export class UserCellsRepo {
  /** Prepared once: every cell the user runs is recorded (preparing per cell cost more than the writes). */
  private readonly q;
  private readonly insert;

  constructor(private readonly db: Db) {
    this.q = {
      lastVersion: db.prepare('SELECT MAX(version) FROM user_cells WHERE session_id = ? AND cell_key = ?').pluck(),
      insert: db.prepare(
        `INSERT INTO user_cells (id, session_id, cell_key, version, language, code, status, generation, result_json, evidence_id, started_at, finished_at)
         VALUES (@id, @session_id, @cell_key, @version, @language, @code, @status, @generation, @result_json, @evidence_id, @started_at, @finished_at)`,
      ),
    };
    this.insert = db.transaction((input: UserCellInput): UserCellRecord => {
      const cellKey = input.cellKey ?? `uc_${randomUUID()}`;
      const last = this.q.lastVersion.get(input.sessionId, cellKey) as number | null;
      const row: Row = {
        id: `ucv_${randomUUID()}`,
        session_id: input.sessionId,
        cell_key: cellKey,
        version: (last ?? 0) + 1,
        language: input.language,
        code: input.code,
        status: input.result.status,
        generation: input.result.generation || null,
        result_json: JSON.stringify(input.hostCalls?.length ? { ...input.result, hostCalls: input.hostCalls } : input.result),
        evidence_id: input.evidenceId,
        started_at: input.startedAt,
        finished_at: input.finishedAt,
      };
      this.q.insert.run(row);
      return toRecord(row);
    });
  }

  record(input: UserCellInput): UserCellRecord {
    return this.insert(input);
  }

  /** Every version of the session's user cells, in the order they finished. */
  list(sessionId: string): UserCellRecord[] {
    return (this.db.prepare('SELECT * FROM user_cells WHERE session_id = ? ORDER BY finished_at, rowid').all(sessionId) as Row[]).map(toRecord);
  }
}
