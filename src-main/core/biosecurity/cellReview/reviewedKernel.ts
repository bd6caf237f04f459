import { dataChunk } from '../../../../src-preload/contract/dataParts';
import type { KernelPort } from '../../engine/ports';
import type { CellGate } from './cellGate';

/**
 * The agent's kernel port behind the cell gate: a cell the review flags runs only once a
 * person approves it; otherwise the conversation shows the cell, not run, with the flagged
 * lines, and the model reads why.
 */
export function reviewedKernel(inner: KernelPort, gate: Pick<CellGate, 'check'>): KernelPort {
  let counter = 0;
  return {
    async executeCell(language, code, ctx) {
      const cellId = `${ctx.runId}-review-${++counter}`;
      const gated = await gate.check(language, code, { sessionId: ctx.sessionId, runId: ctx.runId, ...(ctx.turn !== undefined ? { turn: ctx.turn } : {}), subject: 'cell', signal: ctx.signal, cellId, emit: ctx.emit });
      if (gated.run) return inner.executeCell(language, code, ctx);
      const first = gated.review.findings[0]?.line ?? null;
      ctx.emit(dataChunk('cell', cellId, { language, code, status: 'error', error: { ename: 'NotApproved', evalue: gated.message, traceback: '', line: first } }));
      return { ok: false, summary: `The cell was not run. ${gated.message}` };
    },
  };
}
