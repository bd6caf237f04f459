import type { Db } from './database';
import { nowIso, parseJson } from './util';

export type EnvLanguage = 'python' | 'r';
export type EnvChangeAction = 'use' | 'create' | 'rollback';

/** One row of a session's environment ledger (append-only; see migration 4). */
export interface EnvChangeRecord {
  seq: number;
  sessionId: string;
  language: EnvLanguage;
  action: EnvChangeAction;
  status: 'applied' | 'failed';
  environmentId: string;
  interpreter: string | null;
  previousEnvironmentId: string | null;
  previousInterpreter: string | null;
  /** The step a failed change stopped at (e.g. "install packages"); null when applied. */
  failedStep: string | null;
  detail: string | null;
  /** Package versions probed when the change was applied (name -> version, null = missing). */
  packages: Record<string, string | null> | null;
  at: string;
}

export type EnvChangeInput = Omit<EnvChangeRecord, 'seq' | 'at'>;

/** Every installed package of the interpreter a generation ran, probed when it started. */
export interface EnvironmentLock {
  generationId: string;
  environmentId: string;
  interpreter: string;
  interpreterVersion: string | null;
  lock: {
    /** Installed distributions (Python) or packages (R) with versions. */
    packages: Record<string, string>;
    /** Python: top-level module -> distribution names providing it. */
    modules?: Record<string, string[]>;
    /** Python: the standard library's module names (an import of one needs no package). */
    stdlib?: string[];
    /** The declared packages by import/package name: version, or null when missing. */
    declared?: Record<string, string | null>;
  };
  recordedAt: string;
}

interface ChangeRow {
  seq: number;
  session_id: string;
  language: EnvLanguage;
  action: EnvChangeAction;
  status: 'applied' | 'failed';
  environment_id: string;
  interpreter: string | null;
  previous_environment_id: string | null;
  previous_interpreter: string | null;
  failed_step: string | null;
  detail: string | null;
  packages_json: string | null;
  at: string;
}

interface LockRow {
  generation_id: string;
  environment_id: string;
  interpreter: string;
  interpreter_version: string | null;
  lock_json: string;
  recorded_at: string;
}

const toChange = (r: ChangeRow): EnvChangeRecord => ({
  seq: r.seq,
  sessionId: r.session_id,
  language: r.language,
  action: r.action,
  status: r.status,
  environmentId: r.environment_id,
  interpreter: r.interpreter,
  previousEnvironmentId: r.previous_environment_id,
  previousInterpreter: r.previous_interpreter,
  failedStep: r.failed_step,
  detail: r.detail,
  packages: parseJson(r.packages_json),
  at: r.at,
});

const toLock = (r: LockRow): EnvironmentLock => ({
  generationId: r.generation_id,
  environmentId: r.environment_id,
  interpreter: r.interpreter,
  interpreterVersion: r.interpreter_version,
  lock: JSON.parse(r.lock_json) as EnvironmentLock['lock'],
  recordedAt: r.recorded_at,
});

/** Sessions' environment pointers (an append-only change log) and generations' environment locks. */
export class EnvironmentsRepo {
  private readonly q;

  constructor(private readonly db: Db) {
    this.q = {
      insert: db.prepare(
        `INSERT INTO environment_changes (session_id, language, action, status, environment_id, interpreter, previous_environment_id,
           previous_interpreter, failed_step, detail, packages_json, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      get: db.prepare('SELECT * FROM environment_changes WHERE seq = ?'),
      current: db.prepare(`SELECT * FROM environment_changes WHERE session_id = ? AND language = ? AND status = 'applied' ORDER BY seq DESC LIMIT 1`),
      history: db.prepare('SELECT * FROM environment_changes WHERE session_id = ? ORDER BY seq'),
      insertLock: db.prepare(
        'INSERT OR IGNORE INTO environment_locks (generation_id, environment_id, interpreter, interpreter_version, lock_json, recorded_at) VALUES (?, ?, ?, ?, ?, ?)',
      ),
      lock: db.prepare('SELECT * FROM environment_locks WHERE generation_id = ?'),
      locksBySession: db.prepare(
        'SELECT l.* FROM environment_locks l JOIN kernel_generations g ON g.id = l.generation_id WHERE g.session_id = ? ORDER BY g.language, g.generation',
      ),
    };
  }

  /** Appends a change; an applied one becomes the session's current environment for its language. */
  append(change: EnvChangeInput): EnvChangeRecord {
    const info = this.q.insert.run(
      change.sessionId,
      change.language,
      change.action,
      change.status,
      change.environmentId,
      change.interpreter,
      change.previousEnvironmentId,
      change.previousInterpreter,
      change.failedStep,
      change.detail,
      change.packages === null ? null : JSON.stringify(change.packages),
      nowIso(),
    );
    return toChange(this.q.get.get(info.lastInsertRowid) as ChangeRow);
  }

  /** The newest applied change of the session for the language: its current environment (null: the default). */
  current(sessionId: string, language: EnvLanguage): EnvChangeRecord | null {
    const row = this.q.current.get(sessionId, language) as ChangeRow | undefined;
    return row ? toChange(row) : null;
  }

  /** Every change of the session, oldest first (failed attempts included). */
  history(sessionId: string): EnvChangeRecord[] {
    return (this.q.history.all(sessionId) as ChangeRow[]).map(toChange);
  }

  /** Records a generation's lock once (a second record of the same generation is ignored). */
  recordLock(lock: Omit<EnvironmentLock, 'recordedAt'>): void {
    this.q.insertLock.run(lock.generationId, lock.environmentId, lock.interpreter, lock.interpreterVersion, JSON.stringify(lock.lock), nowIso());
  }

  lock(generationId: string): EnvironmentLock | null {
    const row = this.q.lock.get(generationId) as LockRow | undefined;
    return row ? toLock(row) : null;
  }

  locksBySession(sessionId: string): EnvironmentLock[] {
    return (this.q.locksBySession.all(sessionId) as LockRow[]).map(toLock);
  }
}
