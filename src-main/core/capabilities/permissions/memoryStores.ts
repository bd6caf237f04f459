import { randomUUID } from 'node:crypto';
import type { ApprovalAnswer, RequestStatus, RequestStore } from './approvals';
import type { PermissionRule, RuleStore } from './permissions';

/** In-memory rule and request stores: for runs without a ledger and for unit tests. */
export class MemoryRuleStore implements RuleStore {
  private rules: PermissionRule[] = [];

  listRules(): PermissionRule[] {
    return [...this.rules];
  }

  addRule(rule: Omit<PermissionRule, 'id' | 'createdAt'>): PermissionRule {
    const stored = { ...rule, id: randomUUID(), createdAt: new Date().toISOString() };
    this.rules.push(stored);
    return stored;
  }

  removeRule(id: string): boolean {
    const before = this.rules.length;
    this.rules = this.rules.filter((r) => r.id !== id);
    return this.rules.length !== before;
  }
}

export interface MemoryRequest {
  id: string;
  sessionId: string;
  method: string;
  target: string;
  reason: string;
  status: 'pending' | RequestStatus | 'expired';
  late: ApprovalAnswer[];
}

export class MemoryRequestStore implements RequestStore {
  readonly requests = new Map<string, MemoryRequest>();

  create(input: { sessionId: string; method: string; target: string; reason: string }): string {
    const id = randomUUID();
    this.requests.set(id, { id, sessionId: input.sessionId, method: input.method, target: input.target, reason: input.reason, status: 'pending', late: [] });
    return id;
  }

  decide(id: string, status: RequestStatus): boolean {
    const r = this.requests.get(id);
    if (!r || r.status !== 'pending') return false;
    r.status = status;
    return true;
  }

  expire(id: string): void {
    const r = this.requests.get(id);
    if (r?.status === 'pending') r.status = 'expired';
  }

  /** What a restart does to requests still waiting. */
  expireAll(): void {
    for (const r of this.requests.values()) if (r.status === 'pending') r.status = 'expired';
  }

  recordLate(id: string, answer: ApprovalAnswer): void {
    this.requests.get(id)?.late.push(answer);
  }

  status(id: string): string | null {
    return this.requests.get(id)?.status ?? null;
  }
}
