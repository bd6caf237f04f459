import type { ActionContext, ActionExecutorPort, ToolResult, UnrunCall } from '../engine/ports';
import type { ToolCallRecord } from '../engine/routeAction';
import type { Described, DispatchResult, HostDispatcher } from './dispatcher';

/**
 * The engine's ActionExecutorPort over the host dispatcher. The batch is recorded before
 * anything runs; then calls run in waves: consecutive read/network calls whose resource
 * keys do not clash run together, a write or exec call runs alone. Results are returned
 * in the provider's order whatever order they finished in.
 */

const PARALLEL_SAFE = new Set(['read', 'network']);

/** Two keys clash when equal, or when one is a wildcard prefix of the other (`file:*`). */
function clash(a: readonly string[], b: readonly string[]): boolean {
  const covers = (x: string, y: string) => x === y || (x.endsWith('*') && y.startsWith(x.slice(0, -1)));
  return a.some((x) => b.some((y) => covers(x, y) || covers(y, x)));
}

/** Splits a batch into waves (indices into the batch), in order. */
export function planWaves(described: readonly Pick<Described, 'sideEffect' | 'resourceKeys'>[]): number[][] {
  const waves: number[][] = [];
  let current: number[] = [];
  let currentKeys: string[] = [];
  let currentParallel = true;
  for (let i = 0; i < described.length; i++) {
    const d = described[i]!;
    const parallel = PARALLEL_SAFE.has(d.sideEffect);
    if (current.length && (!parallel || !currentParallel || clash(currentKeys, d.resourceKeys))) {
      waves.push(current);
      current = [];
      currentKeys = [];
    }
    current.push(i);
    currentKeys.push(...d.resourceKeys);
    currentParallel = parallel;
  }
  if (current.length) waves.push(current);
  return waves;
}

export interface ToolExecutorOptions {
  /** Host path of a session's workspace. */
  workspaceFor(sessionId: string): string;
}

export class ToolExecutor implements ActionExecutorPort {
  constructor(
    private readonly dispatcher: HostDispatcher,
    private readonly options: ToolExecutorOptions,
  ) {}

  async executeBatch(calls: ToolCallRecord[], ctx: ActionContext): Promise<ToolResult[]> {
    const workspace = this.options.workspaceFor(ctx.sessionId);
    const base = { origin: 'tool' as const, sessionId: ctx.sessionId, runId: ctx.runId, workspace, signal: ctx.signal, emit: ctx.emit };
    const described = calls.map((c) => this.dispatcher.describe(c.name, c.arguments, 'tool'));
    // The engine's turn number, when its context carries one.
    const turn = (ctx as { turn?: unknown }).turn;
    const slots = this.dispatcher.audit.begin(
      calls.map((c, i) => this.dispatcher.auditCall(c.name, described[i]!, { ...base, toolCallId: c.id, rawArguments: c.rawArguments }, c.arguments)),
      typeof turn === 'number' ? turn : undefined,
    );
    const results: DispatchResult[] = new Array<DispatchResult>(calls.length);
    for (const wave of planWaves(described)) {
      await Promise.all(
        wave.map(async (i) => {
          const c = calls[i]!;
          results[i] = await this.dispatcher.dispatch(c.name, c.arguments, { ...base, toolCallId: c.id, rawArguments: c.rawArguments, auditSlot: slots[i]! });
        }),
      );
    }
    return calls.map((c, i) => {
      const r = results[i]!;
      return {
        toolCallId: c.id,
        toolName: c.name,
        content: r.text,
        isError: r.status !== 'ok',
        ...(r.errorCode ? { errorCode: r.errorCode } : {}),
        ...(r.output === undefined ? {} : { output: r.output }),
        ...(r.status === 'denied' ? { denied: true } : {}),
      };
    });
  }

  /**
   * Audits calls the engine answered without running them (arguments that are not valid
   * JSON, or over the size cap): one row each, status `invalid_arguments`, the raw text and
   * the reason kept, so the audit holds every call the model made.
   */
  async recordUnrun(unrun: UnrunCall[], ctx: ActionContext): Promise<void> {
    if (!unrun.length) return;
    const base = { origin: 'tool' as const, sessionId: ctx.sessionId, runId: ctx.runId, workspace: this.options.workspaceFor(ctx.sessionId), signal: ctx.signal };
    const audit = this.dispatcher.audit;
    const slots = audit.begin(
      unrun.map(({ call }) => {
        const d = { ...this.dispatcher.describe(call.name, undefined, 'tool'), target: '', resourceKeys: [], parseError: call.parseError };
        return this.dispatcher.auditCall(call.name, d, { ...base, toolCallId: call.id, rawArguments: call.rawArguments }, undefined);
      }),
      ctx.turn,
    );
    await Promise.all(
      slots.map((slot, i) =>
        audit.finish(slot, { decision: { action: 'deny', by: 'refused' }, status: 'invalid_arguments', isError: true, executed: false, text: unrun[i]!.answer, durationMs: 0 }),
      ),
    );
  }
}
