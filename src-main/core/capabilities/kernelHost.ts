import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { HostCallContext, HostCallHandler } from '../kernel/hostCalls';
import type { DispatchResult, HostDispatcher } from './dispatcher';
import { andThen } from '../shared/maybePromise';

export interface KernelHostOptions {
  /** The run a session's cell belongs to right now (set by the session runner), for audit and approvals. */
  runOf?: (sessionId: string, owner?: string) => string | null;
  /** Where a session's activity chunks go while a run is live (a child agent's own kernel: that child's stream). */
  emitOf?: (sessionId: string, owner?: string) => ((chunk: StreamChunk) => void) | undefined;
  /** Methods that are not capabilities but engine protocol (`submit_output`), served by their owner. */
  local?: Record<string, HostCallHandler['call']>;
}

/**
 * The kernel supervisor's host-call port over the dispatcher: a cell's `host.web_fetch(...)`
 * takes exactly the path a native `web_fetch` tool call takes. A refusal or denial raises
 * HostError in the cell with the same words the model would read.
 */
export function createKernelHostHandler(dispatcher: HostDispatcher, options: KernelHostOptions = {}): HostCallHandler {
  return {
    call(method: string, args: Record<string, unknown>, ctx: HostCallContext) {
      // Own entries only: `constructor` or `toString` must reach the dispatcher (and be refused there), not Object's.
      const local = options.local && Object.hasOwn(options.local, method) ? options.local[method] : undefined;
      if (local) return local(method, args, ctx);
      const emit = options.emitOf?.(ctx.sessionId, ctx.owner);
      // Answered at once when the dispatcher's every step was (a small read allowed by policy).
      const result = dispatcher.dispatchNow(method, args, {
        origin: 'cell',
        sessionId: ctx.sessionId,
        runId: options.runOf?.(ctx.sessionId, ctx.owner) ?? null,
        workspace: ctx.workspace,
        // Aborted when the cell is interrupted or ends: a pending approval or fetch stops with it.
        signal: ctx.signal ?? new AbortController().signal,
        cellId: ctx.cellId,
        generation: ctx.generation,
        language: ctx.language,
        ...(emit ? { emit } : {}),
      });
      return andThen(result, cellAnswer);
    },
  };
}

/** What the cell receives: the text and output, or HostError with the words the model would read. */
function cellAnswer(result: DispatchResult): { text: string; output?: unknown } {
  if (result.status !== 'ok') throw new Error(result.text);
  return { text: result.text, ...(result.output === undefined ? {} : { output: result.output }) };
}
