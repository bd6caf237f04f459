import { checkCitedAnswer } from '../engine/finalize';
import type { EvidenceLookupPort } from '../engine/ports';
import type { HostCallContext, HostCallHandler } from '../kernel/hostCalls';
import type { LiveRuns } from '../engine/liveRuns';

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
}): CellProtocol {
  const submitted = new Map<string, { cellId: string; answer: unknown }>();
  return {
    handlers: {
      async submit_output(_method, args, ctx: HostCallContext) {
        const answer = (args.answer && typeof args.answer === 'object' ? args.answer : args) as unknown;
        const check = await checkCitedAnswer(answer, deps.evidenceFor(ctx.sessionId));
        if (!check.ok) throw new Error(`submit_output was not accepted: ${check.errors.join('; ')}`);
        if (!deps.liveRuns.of(ctx.sessionId)) throw new Error('submit_output works only while the agent is running (not in a REPL cell)');
        submitted.set(ctx.sessionId, { cellId: ctx.cellId, answer });
        return { accepted: true };
      },
      async llm(_method, args, ctx: HostCallContext) {
        const run = deps.liveRuns.of(ctx.sessionId);
        if (!run?.model) throw new Error('host.llm works only while the agent is running with a model');
        const prompt = typeof args.prompt === 'string' ? args.prompt : '';
        if (!prompt.trim()) throw new Error('host.llm needs a prompt string');
        let text = '';
        for await (const part of run.model.stream({ messages: [{ role: 'user', content: prompt }], signal: run.signal })) {
          if (part.type === 'text-delta') text += part.text;
          if (part.type === 'error') throw new Error(`host.llm: ${part.error.message}`);
        }
        return { text };
      },
    },
    takeSubmitted(sessionId, cellId) {
      const entry = submitted.get(sessionId);
      if (!entry || (cellId && entry.cellId !== cellId)) return undefined;
      submitted.delete(sessionId);
      return entry.answer;
    },
    endSession(sessionId) {
      submitted.delete(sessionId);
    },
    size: () => submitted.size,
  };
}
