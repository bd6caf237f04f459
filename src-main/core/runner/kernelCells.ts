import type { ArtifactVersion } from '../../../src-preload/contract/artifacts';
import { dataChunk, dataPatchChunk } from '../../../src-preload/contract/dataParts';
import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import { cellDataOfResult } from '../../../src-preload/contract/cellView';
import { captureFigures } from '../provenance/figures';
import type { ActionContext, CellOutcome, KernelPort } from '../engine/ports';
import { recordCellEvidence } from '../provenance/evidenceRecords';
import type { ProvenanceServices } from '../provenance/services';
import { CellNotStartedError, type KernelSupervisor } from '../kernel/supervisor';
import { errorMessage } from '../shared/errorMessage';

/** What the model reads of a cell: bounded, the end of long output kept (errors are at the end). */
const SUMMARY_CHARS = 8_000;

function tail(text: string, max: number): string {
  return text.length <= max ? text : `[… ${text.length - max} characters cut …]\n${text.slice(-max)}`;
}

/** The streamed pieces, if both streams wrote and the pieces are exactly the final texts. */
function interleaving(pieces: readonly { stream: 'stdout' | 'stderr'; text: string }[], result: KernelCellResult): boolean {
  if (!result.stdout || !result.stderr || result.truncated) return false;
  const joined = (s: 'stdout' | 'stderr') => pieces.filter((p) => p.stream === s).map((p) => p.text).join('');
  return joined('stdout') === result.stdout && joined('stderr') === result.stderr;
}

export function summarizeCell(result: KernelCellResult): string {
  const parts: string[] = [];
  if (result.stdout) parts.push(`stdout:\n${tail(result.stdout, SUMMARY_CHARS)}`);
  if (result.stderr) parts.push(`stderr:\n${tail(result.stderr, SUMMARY_CHARS / 2)}`);
  for (const d of result.displays) {
    if (d.path) parts.push(`figure saved: ${d.path}`);
    else if (d.data['text/plain']) parts.push(`value:\n${tail(d.data['text/plain'], SUMMARY_CHARS / 2)}`);
  }
  if (result.error) parts.push(`error: ${result.error.ename}: ${result.error.evalue}\n${tail(result.error.traceback, SUMMARY_CHARS / 2)}`);
  if (result.timeLimit) parts.push(result.timeLimit.message);
  else if (result.status === 'interrupted') parts.push('The cell was interrupted.');
  if (result.died) parts.push(`The kernel died (${result.died.reason}). ${result.died.lost}`);
  if (result.sandbox.state === 'degraded') parts.push(`Note: the kernel is not sandboxed (${result.sandbox.reason}).`);
  return parts.length ? parts.join('\n\n') : '(no output)';
}

export interface KernelPortOptions {
  /** Evidence and artifacts: each cell becomes evidence, its figures artifact versions. */
  provenance?: () => ProvenanceServices;
  /** The answer the cell handed in with host.submit_output, if any. */
  takeSubmitted?: (sessionId: string, cellId: string) => unknown;
  /** The wall-clock limit of an agent cell (read per cell, so a changed setting applies to the next). */
  cellTimeoutMs?: (sessionId: string) => number;
  /** How to raise that limit, said when a cell hits it. */
  timeLimitHint?: string;
  /** A child agent's run (issue 20): its cells run in its own kernel of the session (supervisor `owner`). */
  owner?: string;
}

/**
 * The engine's kernel port over the supervisor: a cell is a `data-cell` part that
 * streams its output (JSON-patch appends, so the ledger stores each piece once) and is
 * replaced by the final result; Stop interrupts it. Each finished cell is recorded as
 * evidence (cite it in computed claims) and the figures it left become artifacts.
 */
export function kernelPort(supervisor: KernelSupervisor, options: KernelPortOptions = {}): KernelPort {
  let counter = 0;
  return {
    async executeCell(language, code, ctx: ActionContext): Promise<CellOutcome> {
      const id = `${ctx.runId}-cell-${++counter}`;
      let timeoutMs: number | undefined;
      try {
        timeoutMs = options.cellTimeoutMs?.(ctx.sessionId);
      } catch (error) {
        // A malformed limit setting is the user's to fix: say so instead of running without one.
        const message = errorMessage(error);
        ctx.emit(dataChunk('cell', id, { language, code, status: 'error', error: { ename: 'InvalidSetting', evalue: message, traceback: '', line: null } }));
        return { ok: false, summary: `The cell was not run: ${message}` };
      }
      // The running view shows the limit and offers to extend it (kernel.extendCellLimit).
      ctx.emit(dataChunk('cell', id, { language, code, status: 'running', output: [], startedAt: new Date().toISOString(), ...(timeoutMs ? { timeLimitMs: timeoutMs } : {}) }));
      const pieces: { stream: 'stdout' | 'stderr'; text: string }[] = [];
      const onAbort = () => supervisor.interrupt(ctx.sessionId, language, options.owner);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await supervisor.execute(ctx.sessionId, language, code, {
          ...(timeoutMs ? { timeoutMs } : {}),
          ...(options.timeLimitHint ? { timeLimitHint: options.timeLimitHint } : {}),
          signal: ctx.signal,
          ...(options.owner ? { owner: options.owner } : {}),
          onOutput: (stream, text) => {
            pieces.push({ stream, text });
            ctx.emit(dataPatchChunk('cell', id, [{ op: 'add', path: '/output/-', value: { stream, text } }]));
          },
        });
        // When both streams wrote, the order they wrote in (kept only if it adds up exactly).
        ctx.emit(dataChunk('cell', id, cellDataOfResult(code, result, interleaving(pieces, result) ? pieces : undefined)));
        const notes: string[] = [];
        let evidenceId: string | undefined;
        if (options.provenance) {
          try {
            const services = options.provenance();
            const evidence = recordCellEvidence(services.evidence, result, code);
            evidenceId = evidence.id;
            ctx.emit(dataChunk('evidence', evidence.id, evidence));
            notes.push(`Evidence id of this cell: ${evidence.id} (cite it for computed claims).`);
            const figures = await captureFigures(services.artifacts, result, supervisor.workspaceFor(ctx.sessionId), [evidence.id]);
            const failed = result.status !== 'ok';
            for (const version of figures.saved) {
              ctx.emit(dataChunk('artifact', version.id, version));
              if (!failed) notes.push(`Figure ${version.path} saved as artifact version ${version.id} (evidence ${version.evidenceId}).`);
            }
            for (const skipped of figures.skipped) notes.push(`A figure was not saved: ${skipped}.`);
            if (failed) {
              // A failed computation must never look like a result: every output of this
              // cell is named as coming from it, and versions saved mid-cell are re-sent
              // with the cell's outcome so the UI marks them too.
              const produced = services.artifacts.producedByCell(ctx.sessionId, result.cellId);
              const shown = new Set(figures.saved.map((v) => v.id));
              for (const version of produced) if (!shown.has(version.id)) ctx.emit(dataChunk('artifact', version.id, version));
              notes.push(failedCellNote(result, produced));
            }
          } catch (error) {
            notes.push(`Provenance was not recorded for this cell: ${errorMessage(error)}`);
          }
        }
        const submitted = options.takeSubmitted?.(ctx.sessionId, result.cellId);
        const summary = [summarizeCell(result), ...notes].join('\n\n');
        return {
          ok: result.status === 'ok',
          summary,
          ...(evidenceId ? { evidenceId } : {}),
          ...(submitted !== undefined ? { submitted } : {}),
        };
      } catch (error) {
        const message = errorMessage(error);
        if (error instanceof CellNotStartedError) {
          ctx.emit(dataChunk('cell', id, { language, code, status: 'interrupted', error: { ename: 'Stopped', evalue: message, traceback: '', line: null } }));
          return { ok: false, summary: message };
        }
        ctx.emit(dataChunk('cell', id, { language, code, status: 'error', error: { ename: 'KernelUnavailable', evalue: message, traceback: '', line: null } }));
        return { ok: false, summary: `The ${language} kernel is not available: ${message}` };
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
      }
    },
  };
}

/** What the model is told about the outputs of a cell that did not end ok. */
export function failedCellNote(result: Pick<KernelCellResult, 'status' | 'error' | 'died'>, produced: Pick<ArtifactVersion, 'id' | 'path'>[]): string {
  const why = result.error ? `${result.error.ename}: ${result.error.evalue}` : result.died ? `the kernel died (${result.died.reason})` : result.status;
  const head = `THIS CELL FAILED (${result.status}: ${why.slice(0, 300)}). Its outputs are not results: do not present them as findings or cite them for computed claims; fix the cell and run it again.`;
  if (!produced.length) return head;
  return `${head} Outputs that came from the failed cell (marked as such in the app and the export): ${produced.map((v) => `${v.path} (version ${v.id})`).join(', ')}.`;
}
