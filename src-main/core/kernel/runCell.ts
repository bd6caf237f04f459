import { randomUUID } from 'node:crypto';
import type { KernelCellResult, KernelDisplay, KernelExitCause, KernelLanguage } from '../../../src-preload/contract/kernel';
import { errorMessage } from '../shared/errorMessage';
import type { ResultFrame } from './frames';
import type { HostCallHandler } from './hostCalls';
import type { CellSink, KernelProcess } from './kernelProcess';
import { CellDeadline, formatLimit } from './cellDeadline';
import { OutputBudget, capText, formatBytes } from './outputBudget';
import { exitText } from './exitInfo';
import { figureFileStem, writeFigureBeside, writeNewFigure } from './figureName';
import { OUTPUT_END_GRACE_MS, endsWithin, outputEndMissingNote } from './outputEnd';

function timeLimitHit(limitMs: number, hint: string | undefined) {
  return { limitMs, message: `The cell hit its wall-clock limit of ${formatLimit(limitMs)} and was stopped.${hint ? ` ${hint}` : ''}` };
}

export interface CellLimits {
  /** stdout+stderr kept per cell, bytes at the JSON-escaped worst case. */
  outputBytes: number;
  /** A traceback or a value's text representation. */
  textBytes: number;
  /** One saved image. */
  imageBytes: number;
  /** How often streamed output is flushed to listeners (coalescing window). */
  flushMs: number;
  /** Displays (figures, tables, values) kept per cell, and their text in bytes; the rest are counted. */
  displays?: number;
  displayBytes?: number;
}

export const DEFAULT_LIMITS: CellLimits = {
  outputBytes: 1024 * 1024,
  textBytes: 64 * 1024,
  imageBytes: 16 * 1024 * 1024,
  flushMs: 50,
  displays: 200,
  displayBytes: 8 * 1024 * 1024,
};

export interface CellRequest {
  sessionId: string;
  language: KernelLanguage;
  code: string;
  cellNumber: number;
  limits: CellLimits;
  host: HostCallHandler;
  /** The child agent's run whose own kernel this is (host calls are answered as that run's). */
  owner?: string;
  onOutput?: (stream: 'stdout' | 'stderr', text: string, cellId: string) => void;
  /** Sees each host call of the cell with its answer (a user's Notebook cell records them, issue 25). */
  onHostCall?: (call: ObservedHostCall) => void;
  /** Called right after the cell's frame is handed to the process: work that may overlap the cell's run. */
  onSent?: () => void;
  /** Registers the cell's interrupt function with the supervisor while it runs. */
  setInterrupt: (fn: (graceMs: number) => void) => void;
  /** Wall-clock limit of the cell; on expiry it is interrupted (then killed after the grace). */
  timeoutMs?: number;
  /** How the user raises the limit, said when it is hit (an env var, a CLI flag). */
  timeLimitHint?: string;
  /** Registers the cell's deadline (to extend it) while it runs. */
  setDeadline?: (deadline: CellDeadline | null) => void;
  interruptGraceMs: number;
  /** After the result, how long the cell's end of output may take (outputEnd.ts); default OUTPUT_END_GRACE_MS. */
  outputEndGraceMs?: number;
  /** The end did not come: the process was killed, and its slot must not run another cell in it. */
  onOutputEndMissing?: () => void;
}

/** A host call of a cell and how it was answered. */
export interface ObservedHostCall {
  method: string;
  args: Record<string, unknown>;
  result?: unknown;
  error?: string;
}

function isThenable(value: unknown): value is PromiseLike<unknown> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
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
  // A cell writing display frames in a loop must not fill the app's memory, the window and
  // the ledger (a figure also costs files): past the limits they are only counted.
  const maxDisplays = req.limits.displays ?? DEFAULT_LIMITS.displays!;
  const maxDisplayBytes = req.limits.displayBytes ?? DEFAULT_LIMITS.displayBytes!;
  let displayBytes = 0;
  let displaysDropped = 0;
  let interrupted = false;
  // Host calls of this cell: aborted when it is interrupted or ends. The controller is made
  // at the cell's first host call: most cells make none, and creating one costs more than
  // the rest of a trivial cell's bookkeeping here.
  let cellCalls: AbortController | null = null;
  // Why the calls ended, kept as words: the Error (and its stack) is made only for a controller.
  let callsEnded: string | null = null;
  const callsSignal = (): AbortSignal => {
    if (!cellCalls) {
      cellCalls = new AbortController();
      if (callsEnded) cellCalls.abort(new Error(callsEnded));
    }
    return cellCalls.signal;
  };
  const abortCalls = (reason: string) => {
    callsEnded ??= reason;
    if (cellCalls && !cellCalls.signal.aborted) cellCalls.abort(new Error(reason));
  };
  let escalated = false;
  let figureCount = 0;
  // Invalid frames the worker wrote during this cell (a cell can forge them on fd 3).
  const dropped = { count: 0, first: '' };

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

  // The result frame, or null when the worker died first.
  let resolveResult: (frame: ResultFrame | null) => void = () => {};
  const resultFrame = new Promise<ResultFrame | null>((r) => (resolveResult = r));
  // The answer of a call of an interrupted cell says so: the worker raises the interrupt
  // there and then. On its own pipe the answer can be read before the `interrupt` frame
  // (fd 4) has reached the worker's reader, and the cell would fail with the call's error
  // instead of ending as interrupted.
  const answer = (id: number, body: { result: unknown } | { error: string }): string => JSON.stringify({ type: 'host_response', id, ...body, ...(interrupted ? { interrupted } : {}) });
  const reply = (id: number, result: unknown) => {
    let line: string;
    try {
      line = answer(id, { result: result ?? null });
    } catch (error) {
      // An unserialisable result becomes an error in the cell, not a hang.
      line = answer(id, { error: `the host's answer could not be encoded: ${errorMessage(error)}` });
    }
    proc.sendAnswer(line);
  };
  const replyError = (id: number, error: unknown) => {
    proc.sendAnswer(answer(id, { error: errorMessage(error) || 'the host call failed' }));
  };

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
      if (displays.length >= maxDisplays || displayBytes >= maxDisplayBytes) {
        displaysDropped++;
        return;
      }
      const png = frame.data['image/png'];
      if (png !== undefined) {
        const bytes = Buffer.from(png, 'base64');
        if (bytes.length > req.limits.imageBytes) {
          displays.push({ data: { 'text/plain': `[figure ${frame.figure ?? ''} not saved: ${bytes.length} bytes is over the image limit]` } });
          return;
        }
        figureCount++;
        // Named after what it shows; the cell shares the workspace, so the write follows no
        // symlink it planted and replaces no file already there.
        let rel: string;
        try {
          rel = writeNewFigure(proc.spec.workspace, figureFileStem(frame.title, req.code, proc.generation, req.cellNumber, figureCount), bytes);
        } catch (error) {
          displays.push({ data: { 'text/plain': `[figure ${frame.figure ?? figureCount} not saved: ${errorMessage(error)}]` } });
          return;
        }
        // Its vector forms (issue 25), each within the image limit, beside the PNG.
        const svg = frame.data['image/svg+xml'];
        const svgPath = svg !== undefined && Buffer.byteLength(svg) <= req.limits.imageBytes ? writeFigureBeside(proc.spec.workspace, rel, 'svg', Buffer.from(svg, 'utf8')) : null;
        const pdf = frame.data['application/pdf'] !== undefined ? Buffer.from(frame.data['application/pdf'], 'base64') : null;
        const pdfPath = pdf && pdf.length <= req.limits.imageBytes && pdf.subarray(0, 5).toString('latin1') === '%PDF-' ? writeFigureBeside(proc.spec.workspace, rel, 'pdf', pdf) : null;
        displays.push({
          data: { 'text/plain': `<figure ${frame.figure ?? figureCount} saved as ${rel}>` },
          path: rel,
          bytes: bytes.length,
          ...(svgPath ? { svgPath } : {}),
          ...(pdfPath ? { pdfPath } : {}),
        });
        return;
      }
      const data: Record<string, string> = {};
      for (const [mime, text] of Object.entries(frame.data)) {
        if (typeof text === 'string') {
          data[mime] = capText(text, req.limits.textBytes);
          displayBytes += Buffer.byteLength(data[mime], 'utf8');
        }
      }
      displays.push({ data });
    },
    onHostCall(frame) {
      const ctx = { sessionId: req.sessionId, language: req.language, generation: proc.generation, cellId, workspace: proc.spec.workspace, signal: callsSignal(), ...(req.owner ? { owner: req.owner } : {}) };
      const args = frame.args ?? {};
      const observe = (outcome: { result: unknown } | { error: string }) => {
        try {
          req.onHostCall?.({ method: frame.method, args, ...outcome });
        } catch {
          // An observer's failure is not the cell's.
        }
      };
      const answered = (result: unknown) => (observe({ result }), reply(frame.id, result));
      const failed = (error: unknown) => (observe({ error: errorMessage(error) || 'the host call failed' }), replyError(frame.id, error));
      let answer: unknown;
      try {
        answer = req.host.call(frame.method, args, ctx);
      } catch (error) {
        return failed(error);
      }
      // A synchronous answer (a small read the policy allows) is written back in the same
      // turn that read the call, one microtask later. Written from inside the 'data' event,
      // it once came before FramePoll's own listener for that chunk, which then cleared the
      // answer's time: no call was polled (median call 88-97 against 76-81 us). That
      // listener now comes first (framePoll.ts); answering at once then measured the same.
      if (isThenable(answer)) answer.then(answered, failed);
      else void Promise.resolve(answer).then(answered);
    },
    onDroppedFrame(reason) {
      if (!dropped.count++) dropped.first = reason;
    },
    onResult: (frame) => resolveResult(frame),
    onExit: () => resolveResult(null),
  };

  let escalation: NodeJS.Timeout | null = null;
  const interrupt = (graceMs: number) => {
    if (interrupted) return;
    interrupted = true;
    abortCalls('the cell was interrupted');
    proc.send({ type: 'interrupt', id: cellId });
    // A cell stuck in C code ignores SIGINT: kill the generation after the bound.
    escalation = setTimeout(() => {
      escalated = true;
      proc.kill();
    }, graceMs);
  };
  req.setInterrupt(interrupt);
  const deadline = req.timeoutMs ? new CellDeadline(req.timeoutMs, () => interrupt(req.interruptGraceMs)) : null;
  req.setDeadline?.(deadline);

  const { outDone } = proc.begin(sink, randomUUID(), {
    code: req.code,
    cell: req.cellNumber,
    figures: req.language === 'python' ? 'capture_and_close' : 'capture',
  });
  if (req.onSent) {
    try {
      req.onSent();
    } catch {
      // the caller's bookkeeping must not fail the cell
    }
  }
  let outputEnded = false;
  void outDone.then(() => (outputEnded = true));
  const frame = await resultFrame;
  abortCalls('the cell ended');
  // Output written before the result may still be in the pipes (outDone also ends on death),
  // for a bounded time: a worker stuck after its result must not hold the cell for ever.
  const outputEndGraceMs = req.outputEndGraceMs ?? OUTPUT_END_GRACE_MS;
  const outputEndMissing = frame !== null && !outputEnded && !(await endsWithin(outDone, outputEndGraceMs));
  if (outputEndMissing) {
    proc.kill();
    try {
      req.onOutputEndMissing?.();
    } catch {
      // the caller's bookkeeping must not fail the cell
    }
  }
  if (escalation) clearTimeout(escalation);
  deadline?.clear();
  req.setDeadline?.(null);
  proc.end();
  if (flushTimer) clearTimeout(flushTimer);
  flush();
  if (dropped.count) {
    const more = dropped.count > 1 ? ` (and ${dropped.count - 1} more)` : '';
    const note = `\n[dropped an invalid frame from the kernel: ${dropped.first}${more}]\n`;
    kept.stderr.push(note);
    req.onOutput?.('stderr', note, cellId);
  }
  if (outputEndMissing) {
    const note = outputEndMissingNote(outputEndGraceMs);
    kept.stderr.push(note);
    req.onOutput?.('stderr', note, cellId);
  }
  if (budget.truncated) {
    const note = budget.note();
    kept.stderr.push(note);
    req.onOutput?.('stderr', note, cellId);
  }

  if (displaysDropped > 0) {
    displays.push({ data: { 'text/plain': `[${displaysDropped} more display${displaysDropped === 1 ? '' : 's'} not kept: a cell keeps ${maxDisplays} displays and ${formatBytes(maxDisplayBytes)} of their text; save the rest to files]` } });
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
    ...(deadline?.expired ? { timeLimit: timeLimitHit(deadline.limitMs, req.timeLimitHint) } : {}),
  };
  if (!frame) {
    const exit = await proc.exited;
    const cause: KernelExitCause = escalated ? { kind: 'interrupt_unheeded', graceMs: req.interruptGraceMs } : exit.cause;
    const reason = exitText(cause);
    return {
      ...base,
      status: escalated ? 'interrupted' : 'died',
      died: {
        reason,
        cause,
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
