import { timeOrderedId } from './timeOrderedId';
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

/** `given`: the result and calls the row was made from (not parsed back from its JSON). */
const toRecord = (r: Row, given?: Pick<UserCellRecord, 'result' | 'hostCalls'>): UserCellRecord => {
  const { hostCalls = [], ...result } = given
    ? { ...given.result, hostCalls: given.hostCalls }
    : (JSON.parse(r.result_json) as KernelCellResult & { hostCalls?: UserCellHostCall[] });
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

/** A user cell's row as the ledger's journal carries it (auditJournal.ts), before its commit. */
export interface UserCellJournalRecord {
  k: 'user_cell';
  row: Row;
}

/** The Notebook tab's user cells: every version, append-only (migration 10). */
export class UserCellsRepo {
  /** Prepared once: every cell the user runs is recorded (preparing per cell cost more than the writes). */
  private readonly q;
  private readonly insert;

  /** `beforeRead`: commits rows still queued for a group commit (a user cell's row may wait there, journaled). */
  constructor(
    private readonly db: Db,
    private readonly beforeRead: () => void = () => undefined,
  ) {
    const columns = `user_cells (id, session_id, cell_key, version, language, code, status, generation, result_json, evidence_id, started_at, finished_at)
         VALUES (@id, @session_id, @cell_key, @version, @language, @code, @status, @generation, @result_json, @evidence_id, @started_at, @finished_at)`;
    this.q = {
      lastVersion: db.prepare('SELECT MAX(version) FROM user_cells WHERE session_id = ? AND cell_key = ?').pluck(),
      insert: db.prepare(`INSERT INTO ${columns}`),
      insertIfNew: db.prepare(`INSERT OR IGNORE INTO ${columns}`),
    };
    // The version is read and the row inserted in one transaction.
    this.insert = db.transaction((input: UserCellInput): UserCellRecord => {
      const cell = this.prepare(input);
      cell.write();
      return cell.record;
    });
  }

  /** Records a finished cell now, in its own transaction, after any of its rows still queued. */
  record(input: UserCellInput): UserCellRecord {
    this.beforeRead();
    return this.insert(input);
  }

  /**
   * The row of a finished cell, made now, and the write that stores it (or `journal`, to
   * replay it). A new cell is version 1 of a new key; another run of a cell reads its last
   * version once rows still queued are committed, so two runs never share a version. The
   * caller runs `write` before preparing the next run of the same cell (the session's
   * kernel lease runs its cells one at a time).
   */
  prepare(input: UserCellInput): { record: UserCellRecord; write: () => void; journal: UserCellJournalRecord } {
    let version = 1;
    if (input.cellKey !== null) {
      this.beforeRead();
      version = ((this.q.lastVersion.get(input.sessionId, input.cellKey) as number | null) ?? 0) + 1;
    }
    const row = rowOf(input, input.cellKey ?? `uc_${timeOrderedId()}`, version);
    // The record from what was given, not parsed back from the row's JSON (every cell pays for this).
    const record = toRecord(row, { result: input.result, hostCalls: input.hostCalls ?? [] });
    return { record, write: () => void this.q.insert.run(row), journal: { k: 'user_cell', row } };
  }

  applyJournal(entry: UserCellJournalRecord): void {
    this.q.insertIfNew.run(entry.row);
  }

  /** Every version of the session's user cells, in the order they finished. */
  list(sessionId: string): UserCellRecord[] {
    this.beforeRead();
    return (this.db.prepare('SELECT * FROM user_cells WHERE session_id = ? ORDER BY finished_at, rowid').all(sessionId) as Row[]).map((r) => toRecord(r));
  }
}

function rowOf(input: UserCellInput, cellKey: string, version: number): Row {
  return {
    id: `ucv_${timeOrderedId()}`,
    session_id: input.sessionId,
    cell_key: cellKey,
    version,
    language: input.language,
    code: input.code,
    status: input.result.status,
    generation: input.result.generation || null,
    result_json: JSON.stringify(input.hostCalls?.length ? { ...input.result, hostCalls: input.hostCalls } : input.result),
    evidence_id: input.evidenceId,
    started_at: input.startedAt,
    finished_at: input.finishedAt,
  };
}
