import type { CallOrigin, SideEffectClass } from '../define';
import type { PermissionPolicy, RuleStore } from './permissions';
import { errorMessage } from '../../shared/errorMessage';
import { AppError } from '../../../../src-preload/contract/errors';

/**
 * Approvals: a call the policy marks `ask` becomes a persisted request, then a question to
 * whoever can answer (a native dialog in the app; in a headless run the environment's
 * standing answer). Nobody watching never means allowed.
 */

export type ApprovalAnswer = 'allow_once' | 'allow_session' | 'allow_always' | 'deny' | 'deny_always';

export interface ApprovalQuestion {
  requestId: string;
  sessionId: string;
  runId: string | null;
  origin: CallOrigin;
  tool: string;
  target: string;
  /** The agent's stated reason (the call's `reason` argument), or a note that it gave none. */
  reason: string;
  sideEffect: SideEffectClass;
  /** A short preview of the arguments. */
  detail: string;
}

export interface ApprovalPort {
  /**
   * `signal` aborts when the run is cancelled or the question was answered elsewhere (the
   * card in the window): a dialog still up must close then.
   */
  ask(question: ApprovalQuestion, signal: AbortSignal): Promise<ApprovalAnswer>;
  /** `headless`: a standing answer from the environment, not a person (the denied card says so). */
  readonly kind?: 'dialog' | 'headless';
}

/** Who gave an approval's answer: a person (dialog or the card in the window) or the headless policy. */
export type AnsweredBy = 'user' | 'headless';

export const UNATTENDED_APPROVAL_VAR = 'OPENAI4S_UNATTENDED_APPROVAL';

/** Without a UI: deny, unless the environment says `OPENAI4S_UNATTENDED_APPROVAL=allow` (then each call is allowed once). */
export function headlessApprovals(env: NodeJS.ProcessEnv): ApprovalPort {
  const allow = env[UNATTENDED_APPROVAL_VAR]?.trim().toLowerCase() === 'allow';
  return { kind: 'headless', ask: async () => (allow ? 'allow_once' : 'deny') };
}

export const NO_UI_DENIAL = `denied: no one was there to approve it (headless run). Set ${UNATTENDED_APPROVAL_VAR}=allow to allow such calls without asking.`;

export type RequestStatus = 'allowed_once' | 'allowed_session' | 'denied';

/** Where requests and decisions are kept (the ledger's permission_requests in the app). */
export interface RequestStore {
  create(input: { sessionId: string; runId: string | null; generationId: string | null; method: string; target: string; reason: string }): string;
  /** Decides a pending request; false when it is no longer pending (expired at a restart, already decided). */
  decide(id: string, status: RequestStatus): boolean;
  /** Marks a pending request expired (its caller was cancelled). */
  expire(id: string): void;
  /** A decision that arrived for a request that was no longer waiting: kept for the record. */
  recordLate(id: string, answer: ApprovalAnswer): void;
  status(id: string): string | null;
}

export const statusOf = (a: ApprovalAnswer): RequestStatus =>
  a === 'allow_once' ? 'allowed_once' : a === 'allow_session' || a === 'allow_always' ? 'allowed_session' : 'denied';

export interface ApprovalOutcome {
  requestId: string | null;
  answer: ApprovalAnswer;
  /** False when the decision could not be recorded against a waiting request: the call must not run. */
  recorded: boolean;
  /** Who answered (absent when nobody did: cancelled, or the request could not be recorded). */
  answeredBy?: AnsweredBy;
  note?: string;
}

export interface LateDecision {
  requestId: string;
  delivered: false;
  ran: false;
  status: string | null;
  message: string;
}

/** A question waiting for its answer, from the port (the dialog) or from `decide` (the window). */
interface Waiting {
  resolve(answer: ApprovalAnswer): void;
  /** The safety layers' questions are about one step: "always" is not an answer to them. */
  noRemember: boolean;
}

/**
 * Asks one question at a time, records every decision, and applies its scope. Each question
 * can be answered by the port (the native dialog) or by `decide` (the card in the window),
 * whichever comes first; the other is then withdrawn (the dialog is closed through its signal),
 * so a dialog lost behind a window never holds a run.
 */
export class ApprovalService {
  private readonly waiting = new Map<string, Waiting>();
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly store: RequestStore,
    private readonly rules: RuleStore,
    private readonly policy: PermissionPolicy,
    private readonly port: ApprovalPort,
  ) {}

  /** Persists the request, asks, records the answer and applies it (grant once / session / stored rule). */
  async ask(input: Omit<ApprovalQuestion, 'requestId'> & { generationId: string | null; callKey: string; noRemember?: boolean }, signal: AbortSignal, onAsked?: (q: ApprovalQuestion) => void): Promise<ApprovalOutcome> {
    let requestId: string;
    try {
      requestId = this.store.create({ sessionId: input.sessionId, runId: input.runId, generationId: input.generationId, method: input.tool, target: input.target, reason: input.reason });
    } catch (error) {
      return { requestId: null, answer: 'deny', recorded: false, note: `denied: the approval request could not be recorded (${errorMessage(error)})` };
    }
    const { generationId: _g, callKey, noRemember, ...rest } = input;
    const question: ApprovalQuestion = { ...rest, requestId };
    let answeredBy: AnsweredBy = this.port.kind === 'headless' ? 'headless' : 'user';
    // One dialog at a time: parallel calls in a batch queue their questions.
    const turn = this.queue.then(async () => {
      if (signal.aborted) throw signal.reason ?? new Error('cancelled');
      onAsked?.(question);
      const external = new Promise<ApprovalAnswer>((resolve) =>
        this.waiting.set(requestId, {
          resolve: (answer) => {
            answeredBy = 'user';
            resolve(answer);
          },
          noRemember: noRemember === true,
        }),
      );
      const aborted = new Promise<never>((_, reject) => {
        if (signal.aborted) reject(new Error('cancelled'));
        signal.addEventListener('abort', () => reject(new Error('cancelled')), { once: true });
      });
      // The port's own signal: aborted by the run's, and once the question is settled (closes a dialog still up).
      const withdraw = new AbortController();
      const onAbort = () => withdraw.abort(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      try {
        const fromPort = this.port.ask(question, withdraw.signal);
        // A port that fails after the window answered is of no interest; before, it is the race's answer.
        fromPort.catch(() => undefined);
        return await Promise.race([fromPort, external, aborted]);
      } finally {
        this.waiting.delete(requestId);
        signal.removeEventListener('abort', onAbort);
        withdraw.abort(new Error('answered'));
      }
    });
    // The next question waits for this one to settle, whatever its outcome (the catch below handles it).
    this.queue = turn.catch(() => undefined);
    let answer: ApprovalAnswer;
    try {
      answer = await turn;
    } catch {
      this.store.expire(requestId);
      return { requestId, answer: 'deny', recorded: false, note: 'cancelled while waiting for approval' };
    }
    if (!this.store.decide(requestId, statusOf(answer))) {
      this.store.recordLate(requestId, answer);
      return { requestId, answer, recorded: false, note: `the request is ${this.store.status(requestId) ?? 'gone'}; the decision was recorded but the call was not run` };
    }
    if (answer === 'allow_once') this.policy.grantOnce(callKey, input.sessionId);
    else if (answer === 'allow_session') this.policy.grantSession(input.sessionId, input.tool, input.target);
    else if (answer === 'allow_always' || answer === 'deny_always') {
      // Only the stored rule: it is what Settings lists and revokes. A session grant beside
      // it would outlive a revocation (and for "deny always" it would be an allow).
      this.rules.addRule({ tool: input.tool, target: input.target, action: answer === 'allow_always' ? 'allow' : 'deny', note: `${answer === 'allow_always' ? 'Allowed' : 'Denied'} always from an approval (request ${requestId})` });
    }
    return { requestId, answer, recorded: true, answeredBy };
  }

  /** How many requests wait for an answer (diagnostics and the lifecycle test). */
  get waitingCount(): number {
    return this.waiting.size;
  }

  /**
   * A decision from outside the dialog (a route, a notification). Delivered when the request
   * is still waiting in this process; otherwise (for example it was asked before a restart)
   * it is recorded and nothing runs: the old call died with the old process.
   */
  decide(requestId: string, answer: ApprovalAnswer): { requestId: string; delivered: true } | LateDecision {
    const waiter = this.waiting.get(requestId);
    if (waiter) {
      if (waiter.noRemember && (answer === 'allow_always' || answer === 'deny_always')) {
        throw new AppError('invalid_input', `Request ${requestId} is a safety check about one step; answer it with allow_once, allow_session or deny ("always" is not kept for it).`);
      }
      waiter.resolve(answer);
      return { requestId, delivered: true };
    }
    const status = this.store.status(requestId);
    this.store.recordLate(requestId, answer);
    return {
      requestId,
      delivered: false,
      ran: false,
      status,
      message: `Request ${requestId} is no longer waiting (${status ?? 'unknown'}); the decision "${answer}" was recorded and the call was not run. The agent can ask again.`,
    };
  }
}
