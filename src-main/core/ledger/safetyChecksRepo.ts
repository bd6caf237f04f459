import { timeOrderedId } from './timeOrderedId';
import type { Db } from './database';
import { nowIso } from './util';

/** One safety check of a step (migration 9): a biosecurity screening, a sequence check or a cell review. */
export interface SafetyCheckRecord {
  id: string;
  sessionId: string;
  runId: string | null;
  turn: number | null;
  layer: 'trajectory' | 'sequence' | 'cell_review';
  /** What was checked: the run's message, a tool batch, an agent's cell or a cell the user ran. */
  subject: 'message' | 'tools' | 'cell' | 'user_cell';
  /** sha256 of the checked text (the cell's code, the message), so the row names it without copying it. */
  subjectSha256: string;
  /** What set it off: pre-scan hits, or the review's findings (line, rule, text). */
  trigger: unknown;
  /** Who decided: `model:<provider>/<model>`, `ast`, `token-scan`, `prescan`, `identity-check`. */
  checkedBy: string;
  verdict: 'allow' | 'escalate' | 'block' | 'unavailable' | 'low' | 'high' | 'refused';
  reason: string;
  outcome: 'proceeded' | 'approved' | 'denied' | 'refused' | 'ended';
  /** The approval request, when a person was asked. */
  requestId: string | null;
  durationMs: number;
  at: string;
}

export type SafetyCheckInput = Omit<SafetyCheckRecord, 'id' | 'at'>;

interface Row {
  id: string;
  session_id: string;
  run_id: string | null;
  turn: number | null;
  layer: SafetyCheckRecord['layer'];
  subject: SafetyCheckRecord['subject'];
  subject_sha256: string;
  trigger_json: string;
  checked_by: string;
  verdict: SafetyCheckRecord['verdict'];
  reason: string;
  outcome: SafetyCheckRecord['outcome'];
  request_id: string | null;
  duration_ms: number;
  at: string;
}

const toRecord = (r: Row): SafetyCheckRecord => ({
  id: r.id,
  sessionId: r.session_id,
  runId: r.run_id,
  turn: r.turn,
  layer: r.layer,
  subject: r.subject,
  subjectSha256: r.subject_sha256,
  trigger: JSON.parse(r.trigger_json) as unknown,
  checkedBy: r.checked_by,
  verdict: r.verdict,
  reason: r.reason,
  outcome: r.outcome,
  requestId: r.request_id,
  durationMs: r.duration_ms,
  at: r.at,
});

/** A check's row as the ledger's journal carries it (auditJournal.ts), before its commit. */
export interface SafetyCheckJournalRecord {
  k: 'safety_check';
  record: SafetyCheckRecord;
}

export class SafetyChecksRepo {
  /** Prepared once: every cell the user runs records a check (preparing it each time cost more than the insert). */
  private readonly insert;
  /** The same row from a journal replay: one already committed is left as it is. */
  private readonly insertIfNew;

  /** `beforeRead`: commits rows still queued for a group commit (a user cell's check may wait there, journaled). */
  constructor(
    private readonly db: Db,
    private readonly beforeRead: () => void = () => undefined,
  ) {
    const columns = `safety_checks (id, session_id, run_id, turn, layer, subject, subject_sha256, trigger_json, checked_by, verdict, reason, outcome, request_id, duration_ms, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
    this.insert = db.prepare(`INSERT INTO ${columns}`);
    this.insertIfNew = db.prepare(`INSERT OR IGNORE INTO ${columns}`);
  }

  record(input: SafetyCheckInput): SafetyCheckRecord {
    const prepared = this.prepare(input);
    prepared.write();
    return prepared.record;
  }

  /** The check's row made now (id; its time `at`, default now) and written by `write`, or replayed from `journal`. */
  prepare(input: SafetyCheckInput, at: string = nowIso()): { record: SafetyCheckRecord; write: () => void; journal: SafetyCheckJournalRecord } {
    const record: SafetyCheckRecord = { ...input, id: `sc_${timeOrderedId()}`, at };
    return { record, write: () => this.run(this.insert, record), journal: { k: 'safety_check', record } };
  }

  applyJournal(entry: SafetyCheckJournalRecord): void {
    this.run(this.insertIfNew, entry.record);
  }

  private run(statement: typeof this.insert, record: SafetyCheckRecord): void {
    statement.run(
      record.id,
      record.sessionId,
      record.runId,
      record.turn,
      record.layer,
      record.subject,
      record.subjectSha256,
      JSON.stringify(record.trigger ?? null),
      record.checkedBy,
      record.verdict,
      record.reason,
      record.outcome,
      record.requestId,
      record.durationMs,
      record.at,
    );
  }

  listBySession(sessionId: string): SafetyCheckRecord[] {
    this.beforeRead();
    return (this.db.prepare('SELECT * FROM safety_checks WHERE session_id = ? ORDER BY at, rowid').all(sessionId) as Row[]).map(toRecord);
  }
}
