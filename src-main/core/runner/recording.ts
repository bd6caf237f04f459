import type { ActionExecutorPort, KernelPort } from '../engine/ports';
import type { Ledger } from '../ledger/ledger';
import type { SideEffect } from '../ledger/actionsRepo';

/**
 * Records every native tool batch and every cell attempt as an action group in the
 * ledger before it runs, and its results after: if the app dies in between, crash
 * repair finds the open group and marks it "interrupted: effect unknown, not replayed".
 */
export function recordingExecutor(ledger: Ledger, inner: ActionExecutorPort, sideEffectOf: (tool: string) => SideEffect): ActionExecutorPort {
  return {
    async executeBatch(calls, ctx) {
      const group = ledger.actions.begin({
        sessionId: ctx.sessionId,
        runId: ctx.runId,
        kind: 'tool_batch',
        turn: ctx.turn ?? 0,
        calls: calls.map((c) => ({
          toolCallId: c.id,
          name: c.name,
          rawArguments: c.rawArguments,
          ...(c.parseError ? { parseError: c.parseError } : { arguments: c.arguments }),
          sideEffect: sideEffectOf(c.name),
        })),
      });
      let failed = true;
      try {
        const results = await inner.executeBatch(calls, ctx);
        const byId = new Map(results.map((r) => [r.toolCallId, r]));
        calls.forEach((call, idx) => {
          const r = byId.get(call.id);
          if (r) ledger.actions.recordResult(group, idx, r.denied ? { denied: true, content: r.content } : (r.output ?? r.content), r.isError);
        });
        failed = results.some((r) => r.isError);
        return results;
      } finally {
        ledger.actions.finish(group, failed ? 'failed' : 'completed');
      }
    },
  };
}

export function recordingKernel(ledger: Ledger, inner: KernelPort): KernelPort {
  return {
    async executeCell(language, code, ctx) {
      const group = ledger.actions.begin({
        sessionId: ctx.sessionId,
        runId: ctx.runId,
        kind: 'cell',
        turn: ctx.turn ?? 0,
        calls: [{ name: language, rawArguments: code, sideEffect: 'write' }],
      });
      let ok = false;
      try {
        const outcome = await inner.executeCell(language, code, ctx);
        ok = outcome.ok;
        ledger.actions.recordResult(group, 0, { ok: outcome.ok, summary: outcome.summary }, !outcome.ok);
        return outcome;
      } finally {
        ledger.actions.finish(group, ok ? 'completed' : 'failed');
      }
    },
  };
}
