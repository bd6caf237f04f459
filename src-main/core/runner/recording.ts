import type { KernelPort } from '../engine/ports';
import type { Ledger } from '../ledger/ledger';

/**
 * Records every cell attempt as an action group in the ledger before it runs, and its
 * result after: if the app dies in between, crash repair finds the open group and marks
 * it "interrupted: effect unknown, not replayed". (A native tool batch is recorded by the
 * host's audit, capabilities/audit.ts.)
 */
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
