import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import type { ActionContext, CellOutcome, KernelPort } from '../engine/ports';
import type { KernelSupervisor } from '../kernel/supervisor';

/** What the model reads of a cell: bounded, the end of long output kept (errors are at the end). */
const SUMMARY_CHARS = 8_000;

function tail(text: string, max: number): string {
  return text.length <= max ? text : `[… ${text.length - max} characters cut …]\n${text.slice(-max)}`;
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
  if (result.status === 'interrupted') parts.push('The cell was interrupted.');
  if (result.died) parts.push(`The kernel died (${result.died.reason}). ${result.died.lost}`);
  if (result.sandbox.state === 'degraded') parts.push(`Note: the kernel is not sandboxed (${result.sandbox.reason}).`);
  return parts.length ? parts.join('\n\n') : '(no output)';
}

/**
 * The engine's kernel port over the supervisor: a cell is a `data-cell` part that
 * streams its output (JSON-patch appends, so the ledger stores each piece once) and is
 * replaced by the final result; Stop interrupts it.
 */
export function kernelPort(supervisor: KernelSupervisor): KernelPort {
  let counter = 0;
  return {
    async executeCell(language, code, ctx: ActionContext): Promise<CellOutcome> {
      const id = `${ctx.runId}-cell-${++counter}`;
      ctx.emit({ type: 'data-cell', id, data: { language, code, status: 'running', output: [] } });
      const onAbort = () => supervisor.interrupt(ctx.sessionId, language);
      ctx.signal.addEventListener('abort', onAbort, { once: true });
      try {
        const result = await supervisor.execute(ctx.sessionId, language, code, {
          onOutput: (stream, text) => ctx.emit({ type: 'data-cell', id, patch: [{ op: 'add', path: '/output/-', value: { stream, text } }] }),
        });
        ctx.emit({
          type: 'data-cell',
          id,
          data: {
            language,
            code,
            status: result.status,
            generation: result.generation,
            cellNumber: result.cellNumber,
            stdout: result.stdout,
            stderr: result.stderr,
            displays: result.displays,
            error: result.error ?? null,
            usage: result.usage ?? null,
            truncated: result.truncated,
            sandbox: result.sandbox,
            died: result.died ?? null,
          },
        });
        return { ok: result.status === 'ok', summary: summarizeCell(result) };
      } catch (error) {
        const message = (error as Error)?.message ?? String(error);
        ctx.emit({ type: 'data-cell', id, data: { language, code, status: 'error', error: { ename: 'KernelUnavailable', evalue: message, traceback: '', line: null } } });
        return { ok: false, summary: `The ${language} kernel is not available: ${message}` };
      } finally {
        ctx.signal.removeEventListener('abort', onAbort);
      }
    },
  };
}
