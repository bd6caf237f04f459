import { dataChunk } from '../../../src-preload/contract/dataParts';
import type { ApprovalEventData } from '../../../src-preload/contract/approvals';
import type { SafetyApprovalPort } from '../biosecurity/approvalPort';
import { CELL_REVIEW_TOOL } from '../biosecurity/cellReview/cellGate';
import type { ApprovalAnswer, ApprovalService } from '../capabilities/permissions/approvals';
import { NO_UI_DENIAL } from '../capabilities/permissions/approvals';
import type { PermissionPolicy } from '../capabilities/permissions/permissions';

const STATE: Record<ApprovalAnswer, ApprovalEventData['state']> = {
  allow_once: 'allowed_once',
  allow_session: 'allowed_session',
  allow_always: 'allowed_always',
  deny: 'denied',
  deny_always: 'denied',
};

/**
 * The safety layers' questions (biosecurity escalations, flagged cells) through the app's
 * one approval mechanism: a persisted request, the native dialog (headless: the
 * environment's standing answer, else deny), and the same `data-approval` card a tool's
 * approval streams, whose reason is the screener's sentence or the flagged lines.
 * Each question is about one step; only "Allow for this session" on a flagged cell is kept, for that same code.
 */
export function safetyApprovals(host: { approvals: ApprovalService; policy: Pick<PermissionPolicy, 'consumeOnce' | 'evaluate'> }, headless: boolean): SafetyApprovalPort {
  let counter = 0;
  return {
    async ask(q, signal) {
      const callKey = `safety:${q.sessionId}:${q.tool}:${Date.now()}:${++counter}`;
      // "Allow for this session" on a flagged cell covers the same code (its target is the code's hash) again;
      // a biosecurity escalation is always asked.
      if (q.tool === CELL_REVIEW_TOOL && host.policy.evaluate({ sessionId: q.sessionId, tool: q.tool, target: q.target, callKey, defaultAction: 'ask' }).by === 'session-grant') {
        return { allowed: true, requestId: null, note: 'allowed for this session earlier' };
      }
      const card = { origin: q.origin, tool: q.tool, target: q.target, reason: q.reason, ...(q.cellId ? { cellId: q.cellId } : {}) };
      const outcome = await host.approvals.ask(
        { sessionId: q.sessionId, runId: q.runId, origin: q.origin, tool: q.tool, target: q.target, reason: q.reason, sideEffect: 'exec', detail: q.detail, generationId: null, callKey, noRemember: true },
        signal,
        (asked) => q.emit?.(dataChunk('approval', asked.requestId, { requestId: asked.requestId, state: 'requested', ...card })),
      );
      // "Allow once" left a one-time grant for this key in the policy: it is used now, by this step.
      if (outcome.answer === 'allow_once') host.policy.consumeOnce(callKey);
      if (outcome.requestId) {
        const state = outcome.recorded ? STATE[outcome.answer] : 'expired';
        const by = outcome.answeredBy ? { answeredBy: outcome.answeredBy } : {};
        q.emit?.(dataChunk('approval', outcome.requestId, { requestId: outcome.requestId, state, ...card, ...by, ...(outcome.note ? { note: outcome.note } : {}) }));
      }
      const allowed = outcome.recorded && outcome.answer.startsWith('allow');
      const note = allowed ? 'approved' : !outcome.recorded ? (outcome.note ?? 'the approval was not recorded') : headless ? NO_UI_DENIAL : 'denied by the user';
      return { allowed, requestId: outcome.requestId, note };
    },
  };
}
