import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { KernelCellResult, KernelDisplay, KernelLanguage } from '../../../src-preload/contract/kernel';
import type { ResultFrame } from './frames';
import type { HostCallHandler } from './hostCalls';
import type { CellSink, KernelProcess } from './kernelProcess';
import { OutputBudget, capText } from './outputBudget';

export interface CellLimits {
  /** stdout+stderr kept per cell, bytes at the JSON-escaped worst case. */
  outputBytes: number;
  /** A traceback or a value's text representation. */
  textBytes: number;
  /** One saved image. */
  imageBytes: number;
  /** How often streamed output is flushed to listeners (coalescing window). */
  flushMs: number;
}

export const DEFAULT_LIMITS: CellLimits = {
  outputBytes: 1024 * 1024,
  textBytes: 64 * 1024,
  imageBytes: 16 * 1024 * 1024,
  flushMs: 50,
};

export interface CellRequest {
  sessionId: string;
  language: KernelLanguage;
  code: string;
  cellNumber: number;
  limits: CellLimits;
  host: HostCallHandler;
  onOutput?: (stream: 'stdout' | 'stderr', text: string, cellId: string) => void;
  /** Registers the cell's interrupt function with the supervisor while it runs. */
  setInterrupt: (fn: (graceMs: number) => void) => void;
  timeoutMs?: number;
  interruptGraceMs: number;
}

/**
 * Runs one cell on one worker: streams coalesced output, answers host calls, saves
 * figures as PNG files in the workspace, applies the output cap, and turns a death
 * mid-cell into a result that says what happened and what was lost.
 */
export async function runCell(proc: KernelProcess, req: CellRequest): Promise<KernelCellResult> {
  const cellId = randomUUID();
  const budget = new OutputBudget(req.limits.outputBytes);
  const kept = { stdout: [] as string[], stderr: [] as string[] };
  const pendingFlush = { stdout: '', stderr: '' };
  let flushTimer: NodeJS.Timeout | null = null;
  const displays: KernelDisplay[] = [];
  let interrupted = false;
  let escalated = false;
  let figureCount = 0;

  const flush = () => {
    flushTimer = null;
    for (const stream of ['stdout', 'stderr'] as const) {
      const text = pendingFlush[stream];
      if (text) {
        pendingFlush[stream] = '';
        req.onOutput?.(stream, text, cellId);
      }
    }
  };

  let resolveResult: (frame: ResultFrame) => void = () => {};
  const resultFrame = new Promise<ResultFrame>((r) => (resolveResult = r));

  const sink: CellSink = {
    cellId,
    onText(stream, text) {
      const take = budget.take(text);
      if (!take) return;
      kept[stream].push(take);
      if (req.onOutput) {
        pendingFlush[stream] += take;
        flushTimer ??= setTimeout(flush, req.limits.flushMs);
      }
    },
    onDisplay(frame) {
      const png = frame.data['image/png'];
      if (png !== undefined) {
        const bytes = Buffer.from(png, 'base64');
        if (bytes.length > req.limits.imageBytes) {
          displays.push({ data: { 'text/plain': `[figure ${frame.figure ?? ''} not saved: ${bytes.length} bytes is over the image limit]` } });
          return;
        }
        figureCount++;
        const rel = path.posix.join('figures', `${proc.generation.slice(0, 8)}-cell${req.cellNumber}-${figureCount}.png`);
        fs.mkdirSync(path.join(proc.spec.workspace, 'figures'), { recursive: true });
        fs.writeFileSync(path.join(proc.spec.workspace, rel), bytes);
        displays.push({ data: { 'text/plain': `<figure ${frame.figure ?? figureCount} saved as ${rel}>` }, path: rel, bytes: bytes.length });
        return;
      }
      const data: Record<string, string> = {};
      for (const [mime, text] of Object.entries(frame.data)) {
        if (typeof text === 'string') data[mime] = capText(text, req.limits.textBytes);
      }
      displays.push({ data });
    },
    onHostCall(frame) {
      const ctx = { sessionId: req.sessionId, language: req.language, generation: proc.generation, cellId, workspace: proc.spec.workspace };
      void (async () => {
        let answer: Record<string, unknown>;
        try {
          const result = await req.host.call(frame.method, frame.args ?? {}, ctx);
          answer = { type: 'host_response', id: frame.id, result: result ?? null };
          JSON.stringify(answer); // an unserialisable result becomes an error, not a hang
        } catch (error) {
          answer = { type: 'host_response', id: frame.id, error: (error as Error).message || String(error) };
        }
        proc.send(answer);
      })();
    },
    onResult: (frame) => resolveResult(frame),
  };

  let escalation: NodeJS.Timeout | null = null;
  const interrupt = (graceMs: number) => {
    if (interrupted) return;
    interrupted = true;
    proc.send({ type: 'interrupt', id: cellId });
    // A cell stuck in C code ignores SIGINT: kill the generation after the bound.
    escalation = setTimeout(() => {
      escalated = true;
      proc.kill();
    }, graceMs);
  };
  req.setInterrupt(interrupt);
  const timeout = req.timeoutMs ? setTimeout(() => interrupt(req.interruptGraceMs), req.timeoutMs) : null;

  const { outDone } = proc.begin(sink, randomUUID(), {
    code: req.code,
    cell: req.cellNumber,
    figures: req.language === 'python' ? 'capture_and_close' : 'capture',
  });
  const outcome = await Promise.race([
    resultFrame.then((frame) => ({ frame })),
    proc.exited.then(() => ({ frame: null })),
  ]);
  if (outcome.frame) await Promise.race([outDone, proc.exited]);
  if (escalation) clearTimeout(escalation);
  if (timeout) clearTimeout(timeout);
  proc.end();
  if (flushTimer) clearTimeout(flushTimer);
  flush();
  if (budget.truncated) {
    const note = budget.note();
    kept.stderr.push(note);
    req.onOutput?.('stderr', note, cellId);
  }

  const base = {
    sessionId: req.sessionId,
    language: req.language,
    generation: proc.generation,
    cellId,
    cellNumber: req.cellNumber,
    stdout: kept.stdout.join(''),
    stderr: kept.stderr.join(''),
    displays,
    truncated: budget.truncated,
    sandbox: proc.sandboxState,
  };
  const frame = outcome.frame;
  if (!frame) {
    const exit = await proc.exited;
    const reason = escalated ? `it did not stop within ${req.interruptGraceMs} ms of the interrupt and was killed` : exit.reason;
    return {
      ...base,
      status: escalated ? 'interrupted' : 'died',
      died: {
        reason,
        lost: `The ${req.language === 'python' ? 'Python' : 'R'} kernel (generation ${proc.generation.slice(0, 8)}) ${reason}; its variables, imports and open figures are gone. The next cell starts a new generation.`,
      },
    };
  }
  const result: KernelCellResult = { ...base, status: frame.ok ? 'ok' : 'error' };
  if (frame.usage) {
    result.usage = { wallMs: frame.usage.wall_ms, cpuMs: frame.usage.cpu_ms, peakRssKb: frame.usage.peak_rss_kb ?? null };
  }
  if (frame.error) {
    result.error = {
      ename: frame.error.ename,
      evalue: capText(frame.error.evalue, req.limits.textBytes),
      traceback: capText(frame.error.traceback, req.limits.textBytes),
      line: frame.error.line ?? null,
    };
    if (interrupted && (frame.error.ename === 'KeyboardInterrupt' || frame.error.ename === 'interrupt')) result.status = 'interrupted';
  }
  return result;
}
