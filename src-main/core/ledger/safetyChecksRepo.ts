import { randomUUID } from 'node:crypto';
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

export class SafetyChecksRepo {
  /** Prepared once: every cell the user runs records a check (preparing it each time cost more than the insert). */
  private readonly insert;

  constructor(private readonly db: Db) {
    this.insert = db.prepare(
      `INSERT INTO safety_checks (id, session_id, run_id, turn, layer, subject, subject_sha256, trigger_json, checked_by, verdict, reason, outcome, request_id, duration_ms, at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
  }

  record(input: SafetyCheckInput): SafetyCheckRecord {
    const record: SafetyCheckRecord = { ...input, id: `sc_${randomUUID()}`, at: nowIso() };
    this.insert.run(
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
    return record;
  }

  listBySession(sessionId: string): SafetyCheckRecord[] {
    return (this.db.prepare('SELECT * FROM safety_checks WHERE session_id = ? ORDER BY at, rowid').all(sessionId) as Row[]).map(toRecord);
  }
}
