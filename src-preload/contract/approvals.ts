import { z } from 'zod';
import { route } from './define';

/** A stored permission rule (an "always" decision, or one set in Settings). */
export interface ApprovalRule {
  id: string;
  /** A tool name, or `*` for every tool. */
  tool: string;
  /** The target pattern: a URL origin, a workspace path, ... (`*` matches any run of characters). */
  target: string;
  action: 'allow' | 'deny' | 'ask';
  createdAt: string;
  note?: string;
}

export type ApprovalState = 'requested' | 'allowed_once' | 'allowed_session' | 'allowed_always' | 'denied' | 'expired';

/**
 * The data of a `data-approval` chunk (id = the request id): one when the question is
 * asked, a replacement when it is answered. The same for a tool call and a cell's host call.
 */
export interface ApprovalEventData {
  requestId: string;
  state: ApprovalState;
  origin: 'tool' | 'cell';
  tool: string;
  target: string;
  reason: string;
  /** The provider's tool call id (tool origin) or the cell id (cell origin). */
  toolCallId?: string;
  cellId?: string;
  note?: string;
  /** Who answered: a person (the dialog or the card in the window) or the headless policy. */
  answeredBy?: 'user' | 'headless';
}

/** The data of a `data-host-call` chunk: one capability call through the host dispatcher. */
export interface HostCallEventData {
  origin: 'tool' | 'cell';
  method: string;
  tool: string | null;
  target: string | null;
  status: 'ok' | 'error' | 'denied' | 'refused';
  decidedBy: string;
  cellId?: string;
  toolCallId?: string;
  /** Wall time of the whole call, approval wait included (of all the calls, when `count` > 1). */
  durationMs: number;
  /** How many identical calls of the cell this line stands for (same method, target and decision, all ok); absent: one. */
  count?: number;
  /** The part of `durationMs` spent waiting for an approval (absent: it did not wait). */
  approvalWaitMs?: number;
}

const ruleId = z.string().min(1).max(128);

/** The answers the card in the window offers ("Always" is allow_always; a denial is never stored from the card). */
export const WINDOW_APPROVAL_ANSWERS = ['allow_once', 'allow_session', 'allow_always', 'deny'] as const;
export type WindowApprovalAnswer = (typeof WINDOW_APPROVAL_ANSWERS)[number];

/** What answering a request in the window did: delivered to the waiting call, or too late (nothing ran). */
export type ApprovalDecision =
  | { requestId: string; delivered: true }
  | { requestId: string; delivered: false; ran: false; status: string | null; message: string };

export const approvalRoutes = {
  /** Stored rules, for Settings to show. */
  'approval.rule.list': route<ApprovalRule[]>()(z.object({}).strict().default({})),
  /** Removes a stored rule; later calls are asked again. */
  'approval.rule.revoke': route<{ revoked: boolean }>()(z.object({ id: ruleId }).strict()),
  /**
   * Answers a pending approval from the card in the conversation. The native dialog asking the
   * same question closes; whichever answers first decides.
   */
  'approval.decide': route<ApprovalDecision>()(
    z.object({ requestId: z.string().min(1).max(128), answer: z.enum(WINDOW_APPROVAL_ANSWERS) }).strict(),
  ),
};
