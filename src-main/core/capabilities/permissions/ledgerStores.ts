import { randomUUID } from 'node:crypto';
import { AppError } from '../../../../src-preload/contract/errors';
import type { Ledger } from '../../ledger/ledger';
import { isForeignKeyViolation } from '../../ledger/util';
import type { ApprovalAnswer, RequestStatus, RequestStore } from './approvals';
import type { PermissionRule, RuleStore } from './permissions';

/**
 * The permission stores over the ledger. Requests and decisions live in the ledger's
 * permission_requests table. Stored rules ("always") and late decisions have no table of
 * their own in schema v2, so they are kept as settings values (one JSON list each) until a
 * migration gives them one.
 */

export const RULES_KEY = 'permissions.rules';
export const LATE_DECISIONS_KEY = 'permissions.late_decisions';
const MAX_LATE = 500;

export interface LateDecisionRecord {
  requestId: string;
  answer: ApprovalAnswer;
  statusWhenDecided: string | null;
  at: string;
}

/** The stores take the ledger lazily: the core opens it on first use. */
export type LedgerRef = () => Ledger;

/** How long the rules read from the ledger are reused before they are read again. */
export const RULES_REREAD_MS = 1_000;

export class LedgerRuleStore implements RuleStore {
  /**
   * The rules as last read: every capability call evaluates them, and a burst of host calls
   * would read and parse the settings row thousands of times a second. This store's own
   * changes replace them at once; a change written by another process (a second app or CLI
   * on the same data root) is seen within RULES_REREAD_MS.
   */
  private cached: { rules: PermissionRule[]; at: number } | null = null;

  constructor(
    private readonly ref: LedgerRef,
    private readonly now: () => number = Date.now,
  ) {}

  private get ledger(): Ledger {
    return this.ref();
  }

  listRules(): PermissionRule[] {
    const now = this.now();
    if (this.cached && now - this.cached.at < RULES_REREAD_MS) return this.cached.rules;
    const rules = this.ledger.settings.get<PermissionRule[]>(RULES_KEY) ?? [];
    this.cached = { rules, at: now };
    return rules;
  }

  private store(rules: PermissionRule[]): void {
    this.cached = null;
    this.ledger.settings.set(RULES_KEY, rules);
  }

  addRule(rule: Omit<PermissionRule, 'id' | 'createdAt'>): PermissionRule {
    const stored: PermissionRule = { ...rule, id: randomUUID(), createdAt: new Date().toISOString() };
    this.cached = null; // a change starts from the stored list, not a remembered one
    const rules = this.listRules().filter((r) => !(r.tool === rule.tool && r.target === rule.target));
    this.store([...rules, stored]);
    return stored;
  }

  removeRule(id: string): boolean {
    this.cached = null;
    const rules = this.listRules();
    const kept = rules.filter((r) => r.id !== id);
    if (kept.length === rules.length) return false;
    this.store(kept);
    return true;
  }
}

export class LedgerRequestStore implements RequestStore {
  /**
   * Requests of kernels that belong to no ledger session (`openai4s kernel exec`, a REPL
   * cell): the table's session_id must name a session, so they are kept here for the life
   * of the process. The call's audit record (host-audit.jsonl) carries the decision.
   */
  private readonly unledgered = new Map<string, string>();

  constructor(private readonly ref: LedgerRef) {}

  private get ledger(): Ledger {
    return this.ref();
  }

  create(input: { sessionId: string; runId: string | null; generationId: string | null; method: string; target: string; reason: string }): string {
    if (!this.ledger.sessions.find(input.sessionId)) {
      const id = randomUUID();
      this.unledgered.set(id, 'pending');
      return id;
    }
    const base = { sessionId: input.sessionId, method: input.method, target: input.target, reason: input.reason };
    try {
      return this.ledger.permissions.request({ ...base, ...(input.runId ? { runId: input.runId } : {}), ...(input.generationId ? { generationId: input.generationId } : {}) }).id;
    } catch (error) {
      // A run or kernel generation the ledger does not know (a direct kernel exec, a test
      // engine run) must not block the record: keep the request against its session.
      if (!isForeignKeyViolation(error) || (!input.runId && !input.generationId)) throw error;
      return this.ledger.permissions.request(base).id;
    }
  }

  decide(id: string, status: RequestStatus): boolean {
    if (this.unledgered.has(id)) {
      if (this.unledgered.get(id) !== 'pending') return false;
      this.unledgered.set(id, status);
      return true;
    }
    try {
      this.ledger.permissions.decide(id, status);
      return true;
    } catch (error) {
      // Already decided or expired: the ledger refuses a second decision, and the caller
      // hears "not recorded". Anything else (a failing disk) is not that answer.
      if (error instanceof AppError && error.code === 'not_found') return false;
      throw error;
    }
  }

  expire(id: string): void {
    if (this.unledgered.get(id) === 'pending') this.unledgered.set(id, 'expired');
    if (this.unledgered.has(id)) return;
    // PermissionsRepo can only decide or expire everything at open; a cancelled wait expires one.
    this.ledger.db.prepare(`UPDATE permission_requests SET status = 'expired', decided_at = ? WHERE id = ? AND status = 'pending'`).run(new Date().toISOString(), id);
  }

  recordLate(id: string, answer: ApprovalAnswer): void {
    const list = this.ledger.settings.get<LateDecisionRecord[]>(LATE_DECISIONS_KEY) ?? [];
    list.push({ requestId: id, answer, statusWhenDecided: this.status(id), at: new Date().toISOString() });
    this.ledger.settings.set(LATE_DECISIONS_KEY, list.slice(-MAX_LATE));
  }

  lateDecisions(): LateDecisionRecord[] {
    return this.ledger.settings.get<LateDecisionRecord[]>(LATE_DECISIONS_KEY) ?? [];
  }

  status(id: string): string | null {
    const kept = this.unledgered.get(id);
    if (kept) return kept;
    try {
      return this.ledger.permissions.require(id).status;
    } catch (error) {
      if (error instanceof AppError && error.code === 'not_found') return null;
      throw error;
    }
  }
}
