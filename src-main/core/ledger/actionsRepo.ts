import { timeOrderedId } from './timeOrderedId';
import type { Db } from './database';
import { notFound, nowIso, parseJson } from './util';

export type ActionKind = 'tool_batch' | 'cell';
export type ActionGroupStatus = 'running' | 'completed' | 'failed' | 'interrupted';
/** What a call may do to the world: decides parallelism, approval and what a crash leaves unknown. */
export type SideEffect = 'none' | 'read' | 'write' | 'external';

export interface ActionCallInput {
  /** The provider's tool call id (none for a cell). */
  toolCallId?: string;
  /** The tool name, or the cell language (`python`, `r`). */
  name: string;
  /** The argument text exactly as the model produced it (for a cell: the code). */
  rawArguments: string;
  /** The parsed arguments, when they parsed. */
  arguments?: unknown;
  parseError?: string;
  sideEffect: SideEffect;
}

export interface ActionEventRecord extends Omit<ActionCallInput, 'arguments'> {
  idx: number;
  arguments: unknown;
  result: unknown;
  isError: boolean;
  startedAt: string;
  finishedAt: string | null;
}

export interface ActionGroupRecord {
  id: string;
  sessionId: string;
  runId: string;
  kind: ActionKind;
  turn: number;
  status: ActionGroupStatus;
  kernelGenerationId: string | null;
  startedAt: string;
  finishedAt: string | null;
  events: ActionEventRecord[];
}

interface GroupRow {
  id: string;
  session_id: string;
  run_id: string;
  kind: ActionKind;
  turn: number;
  status: ActionGroupStatus;
  kernel_generation_id: string | null;
  started_at: string;
  finished_at: string | null;
}

interface EventRow {
  idx: number;
  tool_call_id: string | null;
  name: string;
  raw_arguments: string;
  arguments_json: string | null;
  parse_error: string | null;
  side_effect: SideEffect;
  result_json: string | null;
  is_error: number;
  started_at: string;
  finished_at: string | null;
}

export interface BeginInput {
  sessionId: string;
  runId: string;
  kind: ActionKind;
  turn: number;
  kernelGenerationId?: string;
  calls: ActionCallInput[];
}

/**
 * The audit rows of a cell's host call, as data: what `ActionsRepo` writes for it. A record
 * applies idempotently (a begin that exists, a result or finish already written, change
 * nothing), so replaying rows that were also committed is harmless.
 */
export type AuditRecord =
  | { k: 'begin'; id: string; at: string; input: BeginInput }
  | { k: 'result'; id: string; idx: number; result: string; isError: boolean; at: string }
  | { k: 'finish'; id: string; status: 'completed' | 'failed'; at: string }
  /** A one-call group written whole, begin and outcome at once (a cell's read-only host call). */
  | { k: 'call'; id: string; at: string; input: BeginInput; result: string; isError: boolean; status: 'completed' | 'failed'; finishedAt: string };

/** Action groups (a native tool batch or one cell attempt) and their calls, with results. */
export class ActionsRepo {
  private readonly q;

  /**
   * `beforeRead`: commits rows still queued for a group commit (a cell's audit rows wait
   * there, already durable in the audit journal), so a read sees every call answered so far.
   */
  constructor(
    private readonly db: Db,
    private readonly beforeRead: () => void = () => undefined,
  ) {
    this.q = {
      insertGroup: db.prepare(
        `INSERT INTO action_groups (id, session_id, run_id, kind, turn, status, kernel_generation_id, started_at) VALUES (?, ?, ?, ?, ?, 'running', ?, ?)`,
      ),
      insertEvent: db.prepare(
        'INSERT INTO action_events (group_id, idx, tool_call_id, name, raw_arguments, arguments_json, parse_error, side_effect, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      result: db.prepare('UPDATE action_events SET result_json = ?, is_error = ?, finished_at = ? WHERE group_id = ? AND idx = ? AND finished_at IS NULL'),
      finishGroup: db.prepare(`UPDATE action_groups SET status = ?, finished_at = ? WHERE id = ? AND status = 'running'`),
      // Replaying a journal (auditJournal.ts): rows already committed are left as they are.
      // A one-call group written whole: begun, answered and finished in the same two rows.
      insertDoneGroup: db.prepare(
        `INSERT OR IGNORE INTO action_groups (id, session_id, run_id, kind, turn, status, kernel_generation_id, started_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      ),
      insertDoneEvent: db.prepare(
        'INSERT OR IGNORE INTO action_events (group_id, idx, tool_call_id, name, raw_arguments, arguments_json, parse_error, side_effect, started_at, result_json, is_error, finished_at) VALUES (?, 0, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      insertGroupIfNew: db.prepare(
        `INSERT OR IGNORE INTO action_groups (id, session_id, run_id, kind, turn, status, kernel_generation_id, started_at) VALUES (?, ?, ?, ?, ?, 'running', ?, ?)`,
      ),
      insertEventIfNew: db.prepare(
        'INSERT OR IGNORE INTO action_events (group_id, idx, tool_call_id, name, raw_arguments, arguments_json, parse_error, side_effect, started_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
      ),
      group: db.prepare('SELECT * FROM action_groups WHERE id = ?'),
      events: db.prepare('SELECT * FROM action_events WHERE group_id = ? ORDER BY idx'),
      running: db.prepare(`SELECT id FROM action_groups WHERE status = 'running' ORDER BY started_at`).pluck(),
      byRun: db.prepare('SELECT id FROM action_groups WHERE run_id = ? ORDER BY turn, started_at').pluck(),
    };
  }

  /** Records the calls of one action before any of them runs (so a crash leaves a trace). */
  begin(input: BeginInput): string {
    const { id, write } = this.prepareBegin(input);
    this.db.transaction(write).immediate();
    return id;
  }

  /**
   * The id of a group, the write that records it (to run later, inside a group commit) and
   * the same rows as a journal record (auditJournal.ts).
   */
  prepareBegin(input: BeginInput): { id: string; write: () => void; record: AuditRecord } {
    const id = timeOrderedId();
    const now = nowIso();
    const write = () => this.insertBegin(id, now, input, false);
    return { id, write, record: { k: 'begin', id, at: now, input } };
  }

  private insertBegin(id: string, at: string, input: BeginInput, ifNew: boolean): void {
    const [group, event] = ifNew ? [this.q.insertGroupIfNew, this.q.insertEventIfNew] : [this.q.insertGroup, this.q.insertEvent];
    group.run(id, input.sessionId, input.runId, input.kind, input.turn, input.kernelGenerationId ?? null, at);
    input.calls.forEach((c, idx) => {
      const args = c.arguments === undefined ? null : JSON.stringify(c.arguments);
      event.run(id, idx, c.toolCallId ?? null, c.name, c.rawArguments, args, c.parseError ?? null, c.sideEffect, at);
    });
  }

  /**
   * The outcome of call `idx` (and, when `finish` is given, of its group), as a write to run
   * later and as journal records: the same rows `recordResult` and `finish` write.
   */
  prepareOutcome(groupId: string, idx: number, result: unknown, isError: boolean, finish?: 'completed' | 'failed'): { write: () => void; records: AuditRecord[] } {
    const at = nowIso();
    const json = JSON.stringify(result ?? null);
    const records: AuditRecord[] = [{ k: 'result', id: groupId, idx, result: json, isError, at }];
    if (finish) records.push({ k: 'finish', id: groupId, status: finish, at });
    const write = () => {
      const info = this.q.result.run(json, isError ? 1 : 0, at, groupId, idx);
      if (info.changes === 0) throw notFound('pending action call', `${groupId}#${idx}`, 'A result is recorded once, for a call that was begun.');
      if (finish && this.q.finishGroup.run(finish, at, groupId).changes === 0) this.require(groupId);
    };
    return { write, records };
  }

  /**
   * A one-call group whose begin and outcome are recorded together (a cell's read-only host
   * call: it has no effect a crash could leave half done, so its begin need not be durable
   * before it runs): two inserts instead of two inserts and two updates, one journal record.
   */
  prepareCall(input: BeginInput, startedAt: string, result: unknown, isError: boolean, status: 'completed' | 'failed'): { id: string; write: () => void; record: AuditRecord } {
    const id = timeOrderedId();
    const record: AuditRecord = { k: 'call', id, at: startedAt, input, result: JSON.stringify(result ?? null), isError, status, finishedAt: nowIso() };
    return { id, write: () => this.insertCall(record), record };
  }

  private insertCall(r: Extract<AuditRecord, { k: 'call' }>): void {
    const { input } = r;
    const c = input.calls[0];
    if (!c || input.calls.length !== 1) throw new Error('a whole-call record holds exactly one call');
    this.q.insertDoneGroup.run(r.id, input.sessionId, input.runId, input.kind, input.turn, r.status, input.kernelGenerationId ?? null, r.at, r.finishedAt);
    const args = c.arguments === undefined ? null : JSON.stringify(c.arguments);
    this.q.insertDoneEvent.run(r.id, c.toolCallId ?? null, c.name, c.rawArguments, args, c.parseError ?? null, c.sideEffect, r.at, r.result, r.isError ? 1 : 0, r.finishedAt);
  }

  /** Applies a journal record; rows already written are left as they are (a replay may repeat a commit). */
  applyRecord(record: AuditRecord): void {
    if (record.k === 'begin') this.insertBegin(record.id, record.at, record.input, true);
    else if (record.k === 'call') this.insertCall(record);
    else if (record.k === 'result') this.q.result.run(record.result, record.isError ? 1 : 0, record.at, record.id, record.idx);
    else this.q.finishGroup.run(record.status, record.at, record.id);
  }

  /** Stores the result of call `idx`; a result is written once. */
  recordResult(groupId: string, idx: number, result: unknown, isError = false): void {
    const info = this.q.result.run(JSON.stringify(result ?? null), isError ? 1 : 0, nowIso(), groupId, idx);
    if (info.changes === 0) throw notFound('pending action call', `${groupId}#${idx}`, 'A result is recorded once, for a call that was begun.');
  }

  finish(groupId: string, status: Exclude<ActionGroupStatus, 'running' | 'interrupted'>): void {
    if (this.q.finishGroup.run(status, nowIso(), groupId).changes === 0) this.require(groupId);
  }

  /** Used by crash repair only. */
  markInterrupted(groupId: string): void {
    this.q.finishGroup.run('interrupted', nowIso(), groupId);
  }

  runningGroupIds(): string[] {
    this.beforeRead();
    return this.q.running.all() as string[];
  }

  listByRun(runId: string): ActionGroupRecord[] {
    this.beforeRead();
    return (this.q.byRun.all(runId) as string[]).map((id) => this.require(id));
  }

  require(id: string): ActionGroupRecord {
    this.beforeRead();
    const g = this.q.group.get(id) as GroupRow | undefined;
    if (!g) throw notFound('action group', id, 'Action groups are listed per run.');
    const events = (this.q.events.all(id) as EventRow[]).map(
      (e): ActionEventRecord => ({
        idx: e.idx,
        ...(e.tool_call_id === null ? {} : { toolCallId: e.tool_call_id }),
        name: e.name,
        rawArguments: e.raw_arguments,
        arguments: parseJson(e.arguments_json),
        ...(e.parse_error === null ? {} : { parseError: e.parse_error }),
        sideEffect: e.side_effect,
        result: parseJson(e.result_json),
        isError: e.is_error === 1,
        startedAt: e.started_at,
        finishedAt: e.finished_at,
      }),
    );
    return {
      id: g.id,
      sessionId: g.session_id,
      runId: g.run_id,
      kind: g.kind,
      turn: g.turn,
      status: g.status,
      kernelGenerationId: g.kernel_generation_id,
      startedAt: g.started_at,
      finishedAt: g.finished_at,
      events,
    };
  }
}
