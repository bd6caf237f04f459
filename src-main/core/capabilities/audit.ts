import fs from 'node:fs';
import path from 'node:path';
import type { BeginInput, SideEffect } from '../ledger/actionsRepo';
import { encodeJournal, type AuditJournal, type AuditRecord } from '../ledger/auditJournal';
import type { Ledger } from '../ledger/ledger';
import { nowIso } from '../ledger/util';
import type { ApprovalAnswer } from './permissions/approvals';
import type { DecidedBy } from './permissions/permissions';
import type { CallOrigin, PolicyAction, SideEffectClass } from './define';
import { scrubSecrets } from '../security/secrets';
import { errorMessage } from '../shared/errorMessage';

/** One capability call, as recorded before it runs. The same fields for a tool call and a cell's host call. */
export interface AuditCall {
  origin: CallOrigin;
  sessionId: string;
  runId: string | null;
  toolCallId: string | null;
  cellId: string | null;
  generation: string | null;
  method: string;
  target: string;
  sideEffect: SideEffectClass;
  rawArguments: string;
  arguments: unknown;
  /** Why the arguments were refused before anything ran (not JSON, or not what the tool takes). */
  parseError: string | null;
}

export interface AuditDecision {
  action: PolicyAction;
  by: DecidedBy | 'user' | 'refused';
  ruleId?: string;
  requestId?: string;
  answer?: ApprovalAnswer;
}

/** A call's outcome as audited: a dispatch status, or `invalid_arguments` for a call refused before it ran. */
export type AuditStatus = 'ok' | 'error' | 'denied' | 'refused' | 'invalid_arguments';

export interface AuditOutcome {
  decision: AuditDecision;
  status: AuditStatus;
  isError: boolean;
  /** The tool itself ran (its effect may have happened), whatever its status. */
  executed: boolean;
  /** What the model read (capped for the record). */
  text: string;
  output?: unknown;
  durationMs: number;
}

export interface AuditSlot {
  readonly call: AuditCall;
  readonly groupId: string | null;
  readonly idx: number;
  /**
   * Set when the begin row rides in a group commit (a cell's host call): resolves once it
   * is durable. The dispatcher waits for it before a call with effects runs.
   */
  readonly recorded?: Promise<void>;
  /**
   * A cell's read-only call whose begin is held, to be written whole with its outcome
   * (one journal record, one group commit of two rows): the group id is made then.
   */
  readonly held?: { input: BeginInput; at: string };
}

export interface AuditPort {
  /** Records the calls of one action before any of them runs, so a crash leaves a trace. `turn`: the engine turn, when known. */
  begin(calls: AuditCall[], turn?: number): AuditSlot[];
  /** Records the outcome; when it returns a promise, the call is answered only after it resolves (the row is durable). */
  finish(slot: AuditSlot, outcome: AuditOutcome): void | Promise<void>;
}

const RECORD_TEXT_BYTES = 8 * 1024;

/** A slot's `recorded` when its begin row is durable already (journaled, or held to be written whole with its outcome). */
const DURABLE: Promise<void> = Promise.resolve();

export function auditResult(slot: AuditSlot, outcome: AuditOutcome): Record<string, unknown> {
  const { call } = slot;
  return {
    origin: call.origin,
    method: call.method,
    target: call.target,
    sideEffect: call.sideEffect,
    cellId: call.cellId,
    generation: call.generation,
    decision: outcome.decision,
    status: outcome.status,
    text: Buffer.byteLength(outcome.text) > RECORD_TEXT_BYTES ? `${Buffer.from(outcome.text).subarray(0, RECORD_TEXT_BYTES).toString('utf8')}…` : outcome.text,
    ...(outcome.output === undefined ? {} : { output: outcome.output }),
    durationMs: outcome.durationMs,
  };
}

/**
 * A group fails when a call in it ran and did not succeed: its effect may be partial. A call
 * answered without running (unknown tool, invalid arguments, denied) leaves nothing behind,
 * and its own row says why.
 */
function ranAndFailed(outcome: AuditOutcome): boolean {
  return outcome.executed && outcome.status !== 'ok';
}

export const LEDGER_SIDE_EFFECT: Record<SideEffectClass, SideEffect> = { read: 'read', write: 'write', network: 'external', exec: 'external' };

/** Keeps every record in memory (tests, and a listener for diagnostics). */
export class MemoryAudit implements AuditPort {
  readonly records: { call: AuditCall; outcome: AuditOutcome | null }[] = [];

  begin(calls: AuditCall[]): AuditSlot[] {
    return calls.map((call) => {
      this.records.push({ call, outcome: null });
      return { call, groupId: null, idx: this.records.length - 1 };
    });
  }

  finish(slot: AuditSlot, outcome: AuditOutcome): void {
    this.records[slot.idx]!.outcome = outcome;
  }
}

/**
 * The audit in the ledger: a batch is one action group (kind tool_batch) with one event per
 * call; a cell's host call is a one-call group of the run it belongs to. A call with no run
 * the ledger knows (a REPL cell, `openai4s kernel exec`) goes to `<dataDir>/logs/host-audit.jsonl`.
 */
export class LedgerAudit implements AuditPort {
  private readonly turns = new Map<string, number>();
  /** Runs already found in the ledger (a burst of host calls would look its run up per call); released at endRun. */
  private readonly knownRuns = new Set<string>();
  /** Open groups: calls still to finish, and whether a call that ran has failed. */
  private readonly open = new Map<string, { left: number; failed: boolean }>();

  constructor(
    private readonly ref: () => Ledger,
    private readonly fallbackFile: string,
  ) {}

  private get ledger(): Ledger {
    return this.ref();
  }

  private nextTurn(runId: string): number {
    const turn = this.turns.get(runId) ?? this.ledger.actions.listByRun(runId).length;
    this.turns.set(runId, turn + 1);
    return turn;
  }

  begin(calls: AuditCall[], turn?: number): AuditSlot[] {
    const first = calls[0];
    if (!first) return [];
    const runId = first.runId;
    if (runId && this.runExists(runId)) {
      try {
        const input = {
          sessionId: first.sessionId,
          runId,
          kind: 'tool_batch' as const,
          turn: turn ?? this.nextTurn(runId),
          calls: calls.map((c) => ({
            ...(c.toolCallId ? { toolCallId: c.toolCallId } : {}),
            name: c.method,
            rawArguments: c.rawArguments,
            arguments: c.arguments,
            ...(c.parseError ? { parseError: c.parseError } : {}),
            sideEffect: LEDGER_SIDE_EFFECT[c.sideEffect],
          })),
        };
        if (first.origin === 'cell') {
          // A cell's host call: its rows ride in the ledger's group commit (one fsync for
          // many calls); the dispatcher answers the cell only once they are durable.
          const readOnly = calls.every((c) => c.sideEffect === 'read');
          const journal = this.ledger.auditJournal;
          // A read-only call has no effect a crash could leave half done: nothing is written
          // until its outcome, then the whole call at once (one journal record, finish).
          if (journal && readOnly && calls.length === 1) return [{ call: first, groupId: null, idx: 0, recorded: DURABLE, held: { input, at: nowIso() } }];
          const { id: groupId, write, record } = this.ledger.actions.prepareBegin(input);
          // Without a journal (the `full` level) a read-only call's begin row rides with its
          // outcome's commit. A call with effects waits for it: journaled now, or committed
          // at the end of this turn.
          const committed = this.ledger.events.defer(write, readOnly || journal ? 'ride' : 'turn');
          committed.catch(() => undefined); // observed by finish (and by the dispatcher for effects)
          this.open.set(groupId, { left: calls.length, failed: false });
          const recorded = journal ? (this.journaled(journal, encodeJournal([record]), committed) ?? DURABLE) : committed;
          return calls.map((call, idx) => ({ call, groupId, idx, recorded }));
        }
        const groupId = this.ledger.actions.begin(input);
        this.open.set(groupId, { left: calls.length, failed: false });
        return calls.map((call, idx) => ({ call, groupId, idx }));
      } catch (error) {
        this.appendFallback({ note: `could not record in the ledger: ${errorMessage(error)}` });
      }
    }
    return calls.map((call, idx) => ({ call, groupId: null, idx }));
  }

  finish(slot: AuditSlot, outcome: AuditOutcome): void | Promise<void> {
    const result = auditResult(slot, outcome);
    if (slot.held) return this.finishWhole(slot, slot.held, result, outcome);
    if (!slot.groupId) {
      this.appendFallback({ at: new Date().toISOString(), sessionId: slot.call.sessionId, runId: slot.call.runId, arguments: slot.call.arguments, ...result });
      return;
    }
    const groupId = slot.groupId;
    const group = this.open.get(groupId) ?? { left: 1, failed: false };
    group.left -= 1;
    group.failed ||= ranAndFailed(outcome);
    if (group.left <= 0) this.open.delete(groupId);
    else this.open.set(groupId, group);
    const { write, records } = this.ledger.actions.prepareOutcome(groupId, slot.idx, result, outcome.isError, group.left <= 0 ? (group.failed ? 'failed' : 'completed') : undefined);
    if (!slot.recorded) {
      write();
      return;
    }
    return this.commitAnswered(slot, result, write, records);
  }

  /** A held read-only call: its group and its one event, begun and finished, written together. */
  private finishWhole(slot: AuditSlot, held: NonNullable<AuditSlot['held']>, result: Record<string, unknown>, outcome: AuditOutcome): void | Promise<void> {
    const status = ranAndFailed(outcome) ? 'failed' : 'completed';
    const { write, record } = this.ledger.actions.prepareCall(held.input, held.at, result, outcome.isError, status);
    return this.commitAnswered(slot, result, write, [record]);
  }

  /**
   * The rows of a cell's answered call: durable in the journal now (nothing to wait for),
   * in SQLite with the next group commit (without a journal, the call waits for that
   * commit). If the run's rows
   * cannot be written (its session was deleted meanwhile), the record goes to the fallback
   * file, so the answered call still leaves a durable trace.
   */
  private commitAnswered(slot: AuditSlot, result: Record<string, unknown>, write: () => void, records: AuditRecord[]): void | Promise<void> {
    const fallback = (error: unknown) =>
      this.appendFallback({ at: new Date().toISOString(), sessionId: slot.call.sessionId, runId: slot.call.runId, note: `could not record in the ledger: ${errorMessage(error)}`, ...result });
    const journal = this.ledger.auditJournal;
    if (!journal) return this.ledger.events.defer(write).catch(fallback);
    const text = encodeJournal(records);
    // A whole call (a read-only call's two rows) is committed by the writer thread when it serves.
    const writer = records.length === 1 && records[0]!.k === 'call' ? this.ledger.auditWriter : null;
    const committed = writer?.submit(text, records) ?? this.ledger.events.defer(write, 'lazy');
    return this.journaled(journal, text, committed.catch(fallback));
  }

  /**
   * Appends records' journal lines (`encodeJournal`) to the journal: durable once that
   * returns, so there is nothing to wait for (undefined). If the journal cannot be written,
   * the caller waits for the rows' commit instead, asked for at the end of this turn.
   */
  private journaled(journal: AuditJournal, text: string, committed: Promise<void>): void | Promise<void> {
    try {
      journal.appendText(text, committed);
      return;
    } catch {
      void this.ledger.events.defer(() => undefined); // a turn commit, not the group-commit wait
      return committed;
    }
  }

  private runExists(runId: string): boolean {
    if (this.knownRuns.has(runId)) return true;
    if (!this.ledger.runs.find(runId)) return false;
    this.knownRuns.add(runId);
    return true;
  }

  /** The run ended: its turn counter goes (a later call would recount from the ledger). */
  endRun(runId: string): void {
    this.turns.delete(runId);
    this.knownRuns.delete(runId);
  }

  /** How many entries the per-run tables hold (diagnostics and the lifecycle test). */
  sizes(): { turns: number; openGroups: number; knownRuns: number } {
    return { turns: this.turns.size, openGroups: this.open.size, knownRuns: this.knownRuns.size };
  }

  private appendFallback(record: Record<string, unknown>): void {
    fs.mkdirSync(path.dirname(this.fallbackFile), { recursive: true });
    fs.appendFileSync(this.fallbackFile, `${scrubSecrets(JSON.stringify(record))}\n`, { mode: 0o600 });
  }
}
