import { randomUUID } from 'node:crypto';
import { AppError } from '../../../src-preload/contract/errors';
import {
  failureCodeSchema,
  runStatusSchema,
  type FailureCode,
  type RunRecord,
  type RunStatus,
  type RunUsage,
} from '../../../src-preload/contract/sessions';
import type { StoredChunk } from '../../../src-preload/contract/stream';
import type { Db } from './database';
import type { EventLog } from './eventLog';
import type { SessionsRepo } from './sessionsRepo';
import { notFound, nowIso, parseJson } from './util';

interface RunRow {
  id: string;
  session_id: string;
  mutation_id: string;
  message: string;
  status: string;
  failure_code: string | null;
  failure_message: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  provider: string | null;
  model: string | null;
  usage_json: string | null;
  cost_usd: number | null;
  parent_run_id: string | null;
  depth: number;
}

const toRecord = (r: RunRow): RunRecord => ({
  id: r.id,
  sessionId: r.session_id,
  mutationId: r.mutation_id,
  message: r.message,
  status: runStatusSchema.parse(r.status),
  failureCode: r.failure_code === null ? null : failureCodeSchema.parse(r.failure_code),
  failureMessage: r.failure_message,
  createdAt: r.created_at,
  startedAt: r.started_at,
  finishedAt: r.finished_at,
  provider: r.provider,
  model: r.model,
  usage: parseJson<RunUsage>(r.usage_json),
  costUsd: r.cost_usd,
  // Only a child run (delegation) names its parent: a user's run keeps its original shape.
  ...(r.parent_run_id ? { parentRunId: r.parent_run_id, depth: r.depth } : {}),
});

/** Which status may follow which: terminal statuses are final. */
const NEXT: Record<RunStatus, readonly RunStatus[]> = {
  queued: ['processing', 'failed', 'cancelled', 'expired', 'unavailable'],
  processing: ['completed', 'failed', 'cancelled', 'unavailable'],
  completed: [],
  failed: [],
  cancelled: [],
  expired: [],
  unavailable: [],
};

export interface SubmitResult {
  run: RunRecord;
  /** False when this mutation was submitted before: the existing run, nothing new executes. */
  created: boolean;
}

export interface StartedRun {
  run: RunRecord;
  /** The user's turn, appended to the stream when the run starts (see `start`). */
  event: StoredChunk;
}

export interface FinishRun {
  status: Exclude<RunStatus, 'queued' | 'processing'>;
  failureCode?: FailureCode;
  failureMessage?: string;
  usage?: RunUsage;
  costUsd?: number;
}

export class RunsRepo {
  private readonly q;

  constructor(
    private readonly db: Db,
    private readonly sessions: SessionsRepo,
    private readonly events: EventLog,
  ) {
    const cols = 'id, session_id, mutation_id, message, status, failure_code, failure_message, created_at, started_at, finished_at, provider, model, usage_json, cost_usd, parent_run_id, depth';
    this.q = {
      byMutation: db.prepare(`SELECT ${cols} FROM runs WHERE session_id = ? AND mutation_id = ?`),
      get: db.prepare(`SELECT ${cols} FROM runs WHERE id = ?`),
      // A session's runs are the user's messages; child runs (delegation) are listed by `listChildren`.
      bySession: db.prepare(`SELECT ${cols} FROM runs WHERE session_id = ? AND parent_run_id IS NULL ORDER BY created_at, rowid`),
      children: db.prepare(`SELECT ${cols} FROM runs WHERE session_id = ? AND parent_run_id IS NOT NULL ORDER BY created_at, rowid`),
      insertChild: db.prepare(
        `INSERT INTO runs (id, session_id, mutation_id, message, status, created_at, started_at, provider, model, parent_run_id, depth) VALUES (?, ?, ?, ?, 'processing', ?, ?, ?, ?, ?, ?)`,
      ),
      byStatus: db.prepare(`SELECT ${cols} FROM runs WHERE status = ? ORDER BY created_at, rowid`),
      insert: db.prepare(`INSERT INTO runs (id, session_id, mutation_id, message, status, created_at) VALUES (?, ?, ?, ?, 'queued', ?)`),
      start: db.prepare(`UPDATE runs SET status = 'processing', started_at = ?, provider = ?, model = ? WHERE id = ?`),
      finish: db.prepare(
        'UPDATE runs SET status = ?, failure_code = ?, failure_message = ?, finished_at = ?, usage_json = COALESCE(?, usage_json), cost_usd = COALESCE(?, cost_usd) WHERE id = ?',
      ),
    };
  }

  /**
   * Records a user message as a queued run, idempotently: a repeated `mutationId` returns
   * the existing run (and never runs it again), even if the revision moved since. A stale
   * `expectedRevision` on a new mutation is refused with `revision_conflict`.
   */
  submit(sessionId: string, mutationId: string, message: string, expectedRevision?: number): SubmitResult {
    // Commit queued chunks first, so this transaction holds only its own row.
    this.events.flush();
    try {
      return this.db.transaction((): SubmitResult => {
        const session = this.sessions.require(sessionId);
        const existing = this.q.byMutation.get(sessionId, mutationId) as RunRow | undefined;
        if (existing) return { run: toRecord(existing), created: false };
        this.sessions.checkRevision(session, expectedRevision);
        const id = randomUUID();
        this.q.insert.run(id, sessionId, mutationId, message, nowIso());
        this.sessions.bump(sessionId);
        return { run: this.require(id), created: true };
      }).immediate();
    } catch (error) {
      this.events.resetCounters();
      throw error;
    }
  }

  find(id: string): RunRecord | null {
    const row = this.q.get.get(id) as RunRow | undefined;
    return row ? toRecord(row) : null;
  }

  require(id: string): RunRecord {
    const run = this.find(id);
    if (!run) throw notFound('run', id, 'Show the session with `openai4s show <sessionId>` to list its runs.');
    return run;
  }

  listBySession(sessionId: string): RunRecord[] {
    return (this.q.bySession.all(sessionId) as RunRow[]).map(toRecord);
  }

  /** The session's child runs (delegation), oldest first: with the user's runs, the run tree. */
  listChildren(sessionId: string): RunRecord[] {
    return (this.q.children.all(sessionId) as RunRow[]).map(toRecord);
  }

  /**
   * Records a child agent's run (delegation) as started. A child is not a user's message:
   * it is never queued, puts no user turn in the stream and leaves the session's revision
   * alone (the user's next message must not conflict with it).
   */
  startChild(input: { sessionId: string; parentRunId: string; depth: number; task: string; provider: string | null; model: string | null }): RunRecord {
    this.events.flush();
    const parent = this.require(input.parentRunId);
    if (parent.sessionId !== input.sessionId) throw new AppError('invalid_input', `Run ${input.parentRunId} is not a run of session ${input.sessionId}.`);
    const id = randomUUID();
    const at = nowIso();
    this.q.insertChild.run(id, input.sessionId, `child:${id}`, input.task, at, at, input.provider, input.model, input.parentRunId, input.depth);
    return this.require(id);
  }

  listByStatus(status: RunStatus): RunRecord[] {
    return (this.q.byStatus.all(status) as RunRow[]).map(toRecord);
  }

  private transition(run: RunRecord, to: RunStatus): void {
    if (!NEXT[run.status].includes(to)) {
      throw new AppError('conflict', `Run ${run.id} is ${run.status} and cannot become ${to}.`);
    }
  }

  /**
   * Starts a queued run and appends the user's turn to the stream in the same
   * transaction. The turn enters the stream when its run starts, not when it is queued:
   * runs of a session are sequential, so a message queued during a run never lands in
   * the middle of that run's assistant message (the stream stays one message after
   * another). A queued message is kept in `runs.message` meanwhile, so nothing is lost.
   */
  start(id: string, provider: string | null, model: string | null): StartedRun {
    this.events.flush();
    try {
      return this.db.transaction((): StartedRun => {
        const run = this.require(id);
        this.transition(run, 'processing');
        this.q.start.run(nowIso(), provider, model, id);
        const event = this.events.appendSync(run.sessionId, id, { type: 'user-message', messageId: `user-${id}`, text: run.message });
        return { run: this.require(id), event };
      }).immediate();
    } catch (error) {
      this.events.resetCounters();
      throw error;
    }
  }

  finish(id: string, outcome: FinishRun): RunRecord {
    const status = runStatusSchema.parse(outcome.status);
    const failureCode = outcome.failureCode === undefined ? null : failureCodeSchema.parse(outcome.failureCode);
    if (status === 'failed' && !failureCode) throw new AppError('invalid_input', `Run ${id}: a failed run needs a failureCode.`);
    if (status === 'completed' && failureCode) throw new AppError('invalid_input', `Run ${id}: a completed run has no failureCode.`);
    return this.db.transaction(() => {
      this.transition(this.require(id), status);
      this.q.finish.run(
        status,
        failureCode,
        outcome.failureMessage ?? null,
        nowIso(),
        outcome.usage ? JSON.stringify(outcome.usage) : null,
        outcome.costUsd ?? null,
        id,
      );
      return this.require(id);
    }).immediate();
  }
}
