import { checkCitedAnswer } from '../engine/finalize';
import type { EvidenceLookupPort } from '../engine/ports';
import type { HostCallContext, HostCallHandler } from '../kernel/hostCalls';
import type { LiveRun, LiveRuns } from '../engine/liveRuns';

/**
 * The engine-protocol methods a cell may call, as opposed to capabilities (which go
 * through the dispatcher): `host.submit_output(...)` hands in the cited answer
 * (validated here and again by the engine), `host.llm(prompt)` asks the run's model.
 */
export interface CellProtocol {
  handlers: Record<string, HostCallHandler['call']>;
  /** The answer a cell submitted (validated), taken once after the cell ends. */
  takeSubmitted(sessionId: string, cellId?: string): unknown;
  /** Drops a submission nobody took (its run ended or its session was deleted). */
  endSession(sessionId: string): void;
  /** How many sessions hold an untaken submission (diagnostics and the lifecycle test). */
  size(): number;
}

export function createCellProtocol(deps: {
  liveRuns: LiveRuns;
  evidenceFor(sessionId: string): EvidenceLookupPort;
  /**
   * A running child agent's run (issue 20), for a cell in that child's own kernel: its
   * host.llm goes through the child's model, charged to the session's delegation budget.
   */
  childRun?(runId: string): LiveRun | null;
}): CellProtocol {
  // Per session, per cell: a child agent's cell (its own kernel, issue 20) may submit while the parent's does.
  const submitted = new Map<string, Map<string, unknown>>();
  return {
    handlers: {
      async submit_output(_method, args, ctx: HostCallContext) {
        const answer = (args.answer && typeof args.answer === 'object' ? args.answer : args) as unknown;
        const check = await checkCitedAnswer(answer, deps.evidenceFor(ctx.sessionId));
        if (!check.ok) throw new Error(`submit_output was not accepted: ${check.errors.join('; ')}`);
        if (!deps.liveRuns.of(ctx.sessionId)) throw new Error('submit_output works only while the agent is running (not in a REPL cell)');
        const cells = submitted.get(ctx.sessionId) ?? new Map<string, unknown>();
        cells.set(ctx.cellId, answer);
        submitted.set(ctx.sessionId, cells);
        return { accepted: true };
      },
      async llm(_method, args, ctx: HostCallContext) {
        // A child's cell asks as the child (its budget, its stop), never as the user's run.
        const run = ctx.owner ? (deps.childRun?.(ctx.owner) ?? null) : deps.liveRuns.of(ctx.sessionId);
        if (!run?.model) {
          throw new Error(ctx.owner ? `host.llm: child run ${ctx.owner} has ended, so it makes no more model calls` : 'host.llm works only while the agent is running with a model');
        }
        const prompt = typeof args.prompt === 'string' ? args.prompt : '';
        if (!prompt.trim()) throw new Error('host.llm needs a prompt string');
        // Ends with the run, or with the cell (interrupted, timed out): no call outlives what asked for it.
        const signal = ctx.signal ? AbortSignal.any([run.signal, ctx.signal]) : run.signal;
        let text = '';
        let aborted = false;
        for await (const part of run.model.stream({ messages: [{ role: 'user', content: prompt }], signal })) {
          if (part.type === 'text-delta') text += part.text;
          else if (part.type === 'finish') {
            // The call is the run's: its tokens and cost count in the run's usage.
            run.charge?.(part.usage, part.cost);
            aborted = part.reason === 'aborted';
          } else if (part.type === 'error') throw new Error(`host.llm: ${part.error.message}`);
        }
        if (aborted || signal.aborted) throw new Error(`host.llm got no answer: ${run.stopReason?.() ?? 'the run or the cell was stopped'}`);
        return { text };
      },
    },
    takeSubmitted(sessionId, cellId) {
      const cells = submitted.get(sessionId);
      const key = cellId ?? cells?.keys().next().value;
      if (!cells || key === undefined || !cells.has(key)) return undefined;
      const answer = cells.get(key);
      cells.delete(key);
      if (!cells.size) submitted.delete(sessionId);
      return answer;
    },
    endSession(sessionId) {
      submitted.delete(sessionId);
    },
    size: () => submitted.size,
  };
}
