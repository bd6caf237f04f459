import { createHash } from 'node:crypto';
import type { PolicyAction } from '../define';

/**
 * The permission policy: stored rules (allow / deny / ask per tool and target), session
 * grants, and once-grants for an exact call. Evaluation order, first match wins:
 *   1. a deny rule (a stored "never" beats every grant);
 *   2. a once-grant for this exact call (consumed atomically when used);
 *   3. a session grant for this tool and target;
 *   4. an allow rule, then an ask rule;
 *   5. the tool's default.
 */

export interface PermissionRule {
  id: string;
  /** A tool name, or `*` for every tool. */
  tool: string;
  /** A target pattern: exact, or with `*` matching any run of characters (`https://*.ebi.ac.uk`). */
  target: string;
  action: PolicyAction;
  createdAt: string;
  /** Why it exists ("Allowed always from the approval dialog", ...). */
  note?: string;
}

export interface RuleStore {
  listRules(): PermissionRule[];
  addRule(rule: Omit<PermissionRule, 'id' | 'createdAt'>): PermissionRule;
  removeRule(id: string): boolean;
}

export type DecidedBy = 'rule' | 'once-grant' | 'session-grant' | 'default';

export interface PolicyDecision {
  action: PolicyAction;
  by: DecidedBy;
  ruleId?: string;
}

export const ONCE_GRANT_TTL_MS = 15 * 60 * 1000;

export function targetMatches(pattern: string, target: string): boolean {
  if (pattern === '*' || pattern === target) return true;
  if (!pattern.includes('*')) return false;
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(target);
}

/** The identity of an exact call: session, tool and canonical arguments. */
export function callKey(sessionId: string, tool: string, args: unknown): string {
  const canonical = (v: unknown): unknown =>
    Array.isArray(v) ? v.map(canonical) : v && typeof v === 'object' ? Object.fromEntries(Object.keys(v).sort().map((k) => [k, canonical((v as Record<string, unknown>)[k])])) : v;
  return createHash('sha256').update(JSON.stringify([sessionId, tool, canonical(args)])).digest('hex');
}

export class PermissionPolicy {
  private readonly session = new Map<string, Set<string>>();
  /** Once-grants by call key: when each expires and whose session it belongs to (released with it). */
  private readonly once = new Map<string, { expires: number; sessionId: string | null }>();

  constructor(
    private readonly rules: RuleStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** `callKey`: the exact call's key, or a function that computes it (asked only while once-grants exist). */
  evaluate(input: { sessionId: string; tool: string; target: string; callKey: string | (() => string); defaultAction: PolicyAction }): PolicyDecision {
    const matching = this.rules.listRules().filter((r) => (r.tool === '*' || r.tool === input.tool) && targetMatches(r.target, input.target));
    const deny = matching.find((r) => r.action === 'deny');
    if (deny) return { action: 'deny', by: 'rule', ruleId: deny.id };
    if (this.once.size > 0 && this.consumeOnce(typeof input.callKey === 'string' ? input.callKey : input.callKey())) return { action: 'allow', by: 'once-grant' };
    if (this.session.get(input.sessionId)?.has(`${input.tool}\0${input.target}`)) return { action: 'allow', by: 'session-grant' };
    const allow = matching.find((r) => r.action === 'allow');
    if (allow) return { action: 'allow', by: 'rule', ruleId: allow.id };
    const ask = matching.find((r) => r.action === 'ask');
    if (ask) return { action: 'ask', by: 'rule', ruleId: ask.id };
    return { action: input.defaultAction, by: 'default' };
  }

  /** "Allow once": the exact call, valid for 15 minutes, usable one time. */
  grantOnce(key: string, sessionId: string | null = null): void {
    // Grants nobody used expire; they are dropped here so unused ones never pile up.
    const now = this.now();
    for (const [k, grant] of this.once) if (grant.expires <= now) this.once.delete(k);
    this.once.set(key, { expires: now + ONCE_GRANT_TTL_MS, sessionId });
  }

  /**
   * Takes a once-grant if one is live. Check and delete happen in one synchronous step, so
   * of two identical calls racing for one grant exactly one gets it.
   */
  consumeOnce(key: string): boolean {
    const grant = this.once.get(key);
    if (grant === undefined) return false;
    this.once.delete(key);
    return grant.expires > this.now();
  }

  grantSession(sessionId: string, tool: string, target: string): void {
    let set = this.session.get(sessionId);
    if (!set) this.session.set(sessionId, (set = new Set()));
    set.add(`${tool}\0${target}`);
  }

  /** Forgets a session's grants (the session ended or was deleted). */
  endSession(sessionId: string): void {
    this.session.delete(sessionId);
    for (const [k, grant] of this.once) if (grant.sessionId === sessionId) this.once.delete(k);
  }

  /** How many entries the per-session tables hold (diagnostics and the lifecycle test). */
  sizes(): { sessionGrants: number; onceGrants: number } {
    return { sessionGrants: this.session.size, onceGrants: this.once.size };
  }
}
