import type { StreamChunk } from '../../../../src-preload/contract/stream';
import type { SafetyCheckInput } from '../../ledger/safetyChecksRepo';
import { errorMessage } from '../../shared/errorMessage';
import { sha256, type SafetyApprovalPort } from '../approvalPort';
import type { CellReviewer } from './cellReviewer';
import { describeFindings, type CellReview } from './types';

/**
 * The gate in front of every cell, the agent's and the user's: review, then run (low), or
 * ask a person showing the flagged lines (high; headless: denied). The verdict, its
 * findings and the decision are a ledger row. The sandbox applies either way.
 */
export interface CellGateDeps {
  reviewer: Pick<CellReviewer, 'review'>;
  /** Read per cell, so turning the layer off (or on) applies to the next one. */
  enabled(): boolean;
  approvals: SafetyApprovalPort;
  /** Writes the check's row; a promise when the write is group-committed (a user's cell: see `GateResult.recorded`). */
  record(input: SafetyCheckInput): void | Promise<void>;
}

export interface GateContext {
  sessionId: string;
  runId: string | null;
  turn?: number;
  subject: 'cell' | 'user_cell';
  /** Withdraws an approval question; none (a user's cell): the question waits for its answer. */
  signal?: AbortSignal;
  cellId?: string;
  emit?: (chunk: StreamChunk) => void;
  /** Writes this check's row in place of `deps.record` (a user's cell writes it once the cell is sent: `SafetyLayers.reviewUserCell`). */
  record?: CellGateDeps['record'];
}

/**
 * `recorded`: settles once the check's row is committed (at once when `record` wrote it
 * synchronously). It never rejects: a row that could not be written is said as a warning,
 * as a synchronous one is.
 */
export type GateResult =
  | { run: true; review: CellReview | null; recorded: Promise<void> }
  /** `message` says what was flagged and why it did not run. */
  | { run: false; review: CellReview; message: string; recorded: Promise<void> };

const warnUnrecorded = (error: unknown) => console.warn(`cell review: the verdict could not be recorded: ${errorMessage(error)}`);
const RECORDED = Promise.resolve();

export const CELL_REVIEW_TOOL = 'cell_review';

export class CellGate {
  constructor(private readonly deps: CellGateDeps) {}

  async check(language: 'python' | 'r', code: string, ctx: GateContext): Promise<GateResult> {
    if (!this.deps.enabled()) return { run: true, review: null, recorded: RECORDED };
    const review = await this.deps.reviewer.review(language, code);
    const digest = sha256(code);
    const trigger = { findings: review.findings, ...(review.note ? { note: review.note } : {}) };
    const write = ctx.record ?? this.deps.record;
    const record = (outcome: SafetyCheckInput['outcome'], reason: string, requestId: string | null): Promise<void> => {
      try {
        const written = write({
          sessionId: ctx.sessionId,
          runId: ctx.runId,
          turn: ctx.turn ?? null,
          layer: 'cell_review',
          subject: ctx.subject,
          subjectSha256: digest,
          trigger,
          checkedBy: review.reviewer,
          verdict: review.verdict,
          reason,
          outcome,
          requestId,
          durationMs: review.durationMs,
        });
        return written ? written.catch(warnUnrecorded) : RECORDED;
      } catch (error) {
        warnUnrecorded(error);
        return RECORDED;
      }
    };
    if (review.verdict === 'low') {
      const recorded = record('proceeded', review.note ? `nothing flagged (${review.reviewer}: ${review.note})` : `nothing flagged (${review.reviewer})`, null);
      return { run: true, review, recorded };
    }
    const lines = describeFindings(review.findings);
    const reason = `The pre-execution review flagged ${review.findings.length === 1 ? 'one line' : `${review.findings.length} lines`} of this ${language === 'r' ? 'R' : 'Python'} cell:\n${lines}`;
    const answer = await this.deps.approvals.ask(
      {
        sessionId: ctx.sessionId,
        runId: ctx.runId,
        tool: CELL_REVIEW_TOOL,
        target: `${language} cell ${digest.slice(0, 12)}`,
        reason,
        detail: lines,
        origin: 'cell',
        ...(ctx.cellId ? { cellId: ctx.cellId } : {}),
        ...(ctx.emit ? { emit: ctx.emit } : {}),
      },
      // Made only for a question: an AbortController costs more than a trivial cell's review.
      ctx.signal ?? new AbortController().signal,
    );
    const recorded = record(answer.allowed ? 'approved' : 'denied', reason, answer.requestId);
    if (answer.allowed) return { run: true, review, recorded };
    return { run: false, review, recorded, message: `${reason}\nIt was not approved (${answer.note}), so the cell did not run. Do the work without these operations (the kernel has no network; use host calls for data and stay in the workspace).` };
  }
}
