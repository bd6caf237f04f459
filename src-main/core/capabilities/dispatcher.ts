import type { ApprovalEventData, HostCallEventData } from '../../../src-preload/contract/approvals';
import { dataChunk } from '../../../src-preload/contract/dataParts';
import type { StreamChunk, ToolErrorCode } from '../../../src-preload/contract/stream';
import { ApprovalService, type ApprovalAnswer, type ApprovalPort } from './permissions/approvals';
import { EgressRefusedError } from '../security/egress';
import { callKey, PermissionPolicy, type PolicyDecision } from './permissions/permissions';
import { annotateUntrusted } from '../security/untrusted';
import type { CallOrigin, SideEffectClass, Tool, ToolOutput } from './define';
import type { ToolRegistry } from './registry';
import { truncateForModel } from './truncate';
import { ProtectedPathError, WorkspaceEscapeError } from '../workspace/safeFs';
import { toolFailureCode } from './toolErrorCode';
import { CellCallActivity } from './cellCallActivity';
import type { AuditCall, AuditDecision, AuditPort, AuditSlot } from './audit';
import { errorMessage } from '../shared/errorMessage';
import { andThen, isThenable, type MaybePromise } from '../shared/maybePromise';

/**
 * The one envelope every capability call goes through, whether the model called a tool or
 * a cell called `host.<method>`: resolve and validate, policy, approval if needed, the
 * call, truncation, untrusted-output annotation, audit record, activity chunk.
 */

export interface DispatchContext {
  origin: CallOrigin;
  sessionId: string;
  runId: string | null;
  workspace: string;
  signal: AbortSignal;
  emit?: (chunk: StreamChunk) => void;
  toolCallId?: string;
  cellId?: string;
  generation?: string;
  /** The calling cell's language (with cellId and generation: the provenance of what it saves). */
  language?: 'python' | 'r';
  /** The argument text as received (the model's raw JSON; a cell's serialised kwargs). */
  rawArguments?: string;
  /** A slot begun by the batch executor; without one the call records its own. */
  auditSlot?: AuditSlot;
}

export type DispatchStatus = 'ok' | 'error' | 'denied' | 'refused';

export interface DispatchResult {
  status: DispatchStatus;
  /** The tool itself ran (past resolution, validation, policy and approval). */
  executed: boolean;
  /** What the model (or the cell) reads: truncated, outside content annotated. */
  text: string;
  /** Why a call that is not `ok` failed, for the window (the model reads `text` only). */
  errorCode?: ToolErrorCode;
  output?: unknown;
  tool: string | null;
  target: string | null;
  decision: AuditDecision;
  /** How long the call waited for an approval (its duration without the wait is what the call took). */
  approvalWaitMs?: number;
}

export interface Described {
  tool: Tool | null;
  args: unknown;
  parseError: string | null;
  target: string;
  sideEffect: SideEffectClass;
  resourceKeys: string[];
}

const ANSWER_STATE: Record<ApprovalAnswer, ApprovalEventData['state']> = {
  allow_once: 'allowed_once',
  allow_session: 'allowed_session',
  allow_always: 'allowed_always',
  deny: 'denied',
  deny_always: 'denied',
};

function preview(args: unknown): string {
  if (!args || typeof args !== 'object') return '';
  const { reason: _r, ...rest } = args as Record<string, unknown>;
  const text = JSON.stringify(rest, (_k, v: unknown) => (typeof v === 'string' && v.length > 200 ? `${v.slice(0, 200)}…` : v));
  return text.length > 600 ? `${text.slice(0, 600)}…` : text;
}

export interface HostDispatcherDeps {
  registry: ToolRegistry;
  policy: PermissionPolicy;
  approvals: ApprovalService;
  audit: AuditPort;
  /** What the model is told when a headless port denies (it names the variable that changes it). */
  denialNote?: string;
}

export class HostDispatcher {
  /** A cell's repeated calls share an activity line (cellCallActivity.ts). */
  private readonly activity = new CellCallActivity();

  constructor(private readonly deps: HostDispatcherDeps) {}

  get audit(): AuditPort {
    return this.deps.audit;
  }

  /** Resolves the tool for a method and validates the arguments, without running anything. */
  describe(method: string, args: unknown, origin: CallOrigin): Described {
    const tool = (origin === 'cell' ? this.deps.registry.forHostMethod(method) : this.deps.registry.get(method)) ?? null;
    if (!tool) return { tool: null, args, parseError: null, target: '', sideEffect: 'read', resourceKeys: [] };
    const parsed = tool.parse(args);
    if (!parsed.ok) return { tool, args, parseError: parsed.error, target: '', sideEffect: tool.sideEffect, resourceKeys: [] };
    return { tool, args: parsed.args, parseError: null, target: tool.target(parsed.args), sideEffect: tool.sideEffect, resourceKeys: tool.resourceKeys(parsed.args) };
  }

  auditCall(method: string, d: Described, ctx: DispatchContext, rawArgs: unknown): AuditCall {
    return {
      origin: ctx.origin,
      sessionId: ctx.sessionId,
      runId: ctx.runId,
      toolCallId: ctx.toolCallId ?? null,
      cellId: ctx.cellId ?? null,
      generation: ctx.generation ?? null,
      method: d.tool?.name ?? method,
      target: d.target,
      sideEffect: d.sideEffect,
      rawArguments: ctx.rawArguments ?? JSON.stringify(rawArgs ?? {}),
      arguments: rawArgs,
      parseError: d.parseError,
    };
  }

  async dispatch(method: string, args: unknown, ctx: DispatchContext): Promise<DispatchResult> {
    return this.dispatchNow(method, args, ctx);
  }

  /**
   * `dispatch`, answered at once when every step is synchronous: a read the policy allows,
   * a tool that answers at once and an audit journaled on the spot (a cell's burst of
   * `host.read_file` calls). A step that waits (an approval, a fetch, a commit) makes the
   * result a promise from there on. Throws only where `dispatch` would reject.
   */
  dispatchNow(method: string, args: unknown, ctx: DispatchContext): MaybePromise<DispatchResult> {
    const started = Date.now();
    const d = this.describe(method, args, ctx.origin);
    const slot = ctx.auditSlot ?? this.deps.audit.begin([this.auditCall(method, d, ctx, args)])[0]!;
    // A call with effects runs only once its begin row is durable (a crash leaves a trace);
    // a read has no effect to trace, so its rows are committed with its outcome.
    const ran =
      slot.recorded && d.sideEffect !== 'read'
        ? slot.recorded.catch(() => undefined).then(() => this.run(method, d, ctx))
        : this.run(method, d, ctx);
    return andThen(ran, (result) => this.settle(method, ctx, d, slot, started, result));
  }

  /** The call's outcome audited (answered only once its rows are durable), then its activity line. */
  private settle(method: string, ctx: DispatchContext, d: Described, slot: AuditSlot, started: number, result: DispatchResult): MaybePromise<DispatchResult> {
    const durationMs = Date.now() - started;
    const waited = result.approvalWaitMs ?? 0;
    const durable = this.deps.audit.finish(slot, {
      decision: result.decision,
      status: d.parseError ? 'invalid_arguments' : result.status,
      isError: result.status !== 'ok',
      executed: result.executed,
      text: result.text,
      ...(result.output === undefined ? {} : { output: result.output }),
      durationMs,
    });
    return andThen(durable, () => {
      const activity: HostCallEventData = {
        origin: ctx.origin,
        method,
        tool: result.tool,
        target: result.target,
        status: result.status,
        decidedBy: result.decision.by,
        durationMs,
        ...(waited > 0 ? { approvalWaitMs: waited } : {}),
        ...(ctx.cellId ? { cellId: ctx.cellId } : {}),
        ...(ctx.toolCallId ? { toolCallId: ctx.toolCallId } : {}),
      };
      this.activity.report(ctx, activity, ctx.toolCallId ?? `${ctx.cellId ?? 'call'}:${started}:${method}`);
      return result;
    });
  }

  private run(method: string, d: Described, ctx: DispatchContext): MaybePromise<DispatchResult> {
    const refused: AuditDecision = { action: 'deny', by: 'refused' };
    if (!d.tool) {
      const text =
        ctx.origin === 'cell'
          ? `unknown host method "${method}"; the host serves ${this.deps.registry.names().join(', ')}`
          : this.deps.registry.unknownToolMessage(method);
      return { status: 'error', errorCode: 'unknown_tool', executed: false, text, tool: null, target: null, decision: refused };
    }
    const tool = d.tool;
    if (d.parseError) return { status: 'error', errorCode: 'invalid_arguments', executed: false, text: d.parseError, tool: tool.name, target: null, decision: refused };

    // The exact call's key (a sha256 of its canonical arguments) is only needed by a once-grant or an approval.
    let exactKey: string | undefined;
    const keyOf = () => (exactKey ??= callKey(ctx.sessionId, tool.name, d.args));
    const evaluated = this.deps.policy.evaluate({ sessionId: ctx.sessionId, tool: tool.name, target: d.target, callKey: keyOf, defaultAction: tool.defaultPolicy });
    // A tool that asks every time is not let through by an earlier grant or "always" rule (a deny rule still wins).
    const policy: PolicyDecision = tool.askEveryTime && evaluated.action === 'allow' && (evaluated.by === 'session-grant' || evaluated.by === 'rule') ? { action: 'ask', by: 'default' } : evaluated;
    const decision: AuditDecision = { action: policy.action, by: policy.by, ...(policy.ruleId ? { ruleId: policy.ruleId } : {}) };
    const base = { tool: tool.name, target: d.target, executed: false };

    if (policy.action === 'deny') {
      return { ...base, status: 'denied', errorCode: 'denied', decision, text: `denied: a stored rule refuses ${tool.name} on ${d.target}. Do not retry it; continue without it or tell the user what you need.` };
    }
    if (policy.action === 'ask') return this.askThenRun(tool, d, ctx, base, keyOf);
    return this.execute(tool, d, ctx, { ...base, executed: true, decision });
  }

  /** A call the policy says to ask about: the question, its answer recorded, then the call if allowed. */
  private async askThenRun(tool: Tool, d: Described, ctx: DispatchContext, base: { tool: string; target: string; executed: boolean }, keyOf: () => string): Promise<DispatchResult> {
    // No reason given stays empty: each window says so in its own language.
    const reason = typeof (d.args as { reason?: unknown })?.reason === 'string' ? String((d.args as { reason: string }).reason) : '';
    const eventBase = { origin: ctx.origin, tool: tool.name, target: d.target, reason, ...(ctx.toolCallId ? { toolCallId: ctx.toolCallId } : {}), ...(ctx.cellId ? { cellId: ctx.cellId } : {}) };
    const asking = Date.now();
    const outcome = await this.deps.approvals.ask(
      { sessionId: ctx.sessionId, runId: ctx.runId, origin: ctx.origin, tool: tool.name, target: d.target, reason, sideEffect: tool.sideEffect, detail: tool.approvalDetail?.(d.args) ?? preview(d.args), generationId: ctx.generation ?? null, callKey: keyOf() },
      ctx.signal,
      (q) => {
        if (ctx.origin === 'tool' && ctx.toolCallId) ctx.emit?.({ type: 'tool-approval-request', toolCallId: ctx.toolCallId, approvalId: q.requestId });
        ctx.emit?.(dataChunk('approval', q.requestId, { requestId: q.requestId, state: 'requested', ...eventBase }));
      },
    );
    const approvalWaitMs = Date.now() - asking;
    const decision: AuditDecision = { action: outcome.answer.startsWith('allow') && outcome.recorded ? 'allow' : 'deny', by: 'user', answer: outcome.answer, ...(outcome.requestId ? { requestId: outcome.requestId } : {}) };
    if (outcome.requestId) {
      const state = outcome.recorded ? ANSWER_STATE[outcome.answer] : 'expired';
      const by = outcome.answeredBy ? { answeredBy: outcome.answeredBy } : {};
      ctx.emit?.(dataChunk('approval', outcome.requestId, { requestId: outcome.requestId, state, ...eventBase, ...by, ...(outcome.note ? { note: outcome.note } : {}) }));
    }
    const notRun = { ...base, status: 'denied' as const, errorCode: 'denied' as const, decision, approvalWaitMs };
    if (!outcome.recorded) return { ...notRun, text: `not run: ${outcome.note ?? 'the approval was not recorded'}.` };
    if (!outcome.answer.startsWith('allow')) {
      const who = this.deps.denialNote ?? 'denied by the user';
      return { ...notRun, text: `${who} (${tool.name} on ${d.target}). Do not retry the same call; continue without it or explain what you need.` };
    }
    // "Allow once" is a grant for this exact call; take it now, atomically.
    if (outcome.answer === 'allow_once' && !this.deps.policy.consumeOnce(keyOf())) {
      return { ...notRun, text: 'not run: the one-time approval for this exact call was already used or has expired.' };
    }
    return this.execute(tool, d, ctx, { ...base, executed: true, decision, approvalWaitMs });
  }

  /** Runs an allowed call: truncation, untrusted annotation, safety refusals told apart from failures. */
  private execute(tool: Tool, d: Described, ctx: DispatchContext, ran: Pick<DispatchResult, 'tool' | 'target' | 'executed' | 'decision' | 'approvalWaitMs'>): MaybePromise<DispatchResult> {
    const answered = (out: ToolOutput): DispatchResult => {
      const cut = truncateForModel(out.text, tool.maxOutputBytes);
      const text = out.untrustedSource ? annotateUntrusted(out.untrustedSource, cut.text).text : cut.text;
      return { ...ran, status: 'ok', decision: ran.decision, text, ...(out.output === undefined ? {} : { output: out.output }) };
    };
    const failed = (error: unknown): DispatchResult => this.failure(tool, ran, error, ctx.signal);
    try {
      const cell = ctx.cellId && ctx.generation && ctx.language ? { cell: { cellId: ctx.cellId, generation: ctx.generation, language: ctx.language } } : {};
      const live = { ...(ctx.toolCallId ? { toolCallId: ctx.toolCallId } : {}), ...(ctx.emit ? { emit: ctx.emit } : {}) };
      const toolCtx = { sessionId: ctx.sessionId, runId: ctx.runId, workspace: ctx.workspace, signal: ctx.signal, origin: ctx.origin, ...cell, ...live };
      const out = tool.executeNow ? tool.executeNow(d.args, toolCtx) : tool.execute(d.args, toolCtx);
      if (isThenable<ToolOutput>(out)) return Promise.resolve(out).then(answered).catch(failed);
      return answered(out);
    } catch (error) {
      return failed(error);
    }
  }

  /** A call that threw: a safety refusal (said as such, not to be retried) or a failure. */
  private failure(tool: Tool, ran: Pick<DispatchResult, 'tool' | 'target' | 'executed' | 'decision' | 'approvalWaitMs'>, error: unknown, signal: AbortSignal): DispatchResult {
    const decision = ran.decision;
    const errorCode = toolFailureCode(error, signal);
    if (error instanceof EgressRefusedError) {
      return { ...ran, status: 'refused', errorCode, decision, text: `${error.message}. This was refused by the app's safety rules, not by the site; do not retry it.` };
    }
    if (error instanceof WorkspaceEscapeError || error instanceof ProtectedPathError) {
      return { ...ran, status: 'refused', errorCode, decision, text: `${error.message} This was refused by the app's safety rules; do not retry it.` };
    }
    return { ...ran, status: 'error', errorCode, decision, text: `${tool.name} failed: ${errorMessage(error)}` };
  }
}

/** Builds a policy + approval service pair over the given stores and port. */
export function createPermissionLayer(deps: { rules: ConstructorParameters<typeof PermissionPolicy>[0]; requests: ConstructorParameters<typeof ApprovalService>[0]; port: ApprovalPort; now?: () => number }) {
  const policy = new PermissionPolicy(deps.rules, deps.now);
  const approvals = new ApprovalService(deps.requests, deps.rules, policy, deps.port);
  return { policy, approvals };
}
