import type { HostCallEventData } from '../../../src-preload/contract/approvals';
import { dataChunk } from '../../../src-preload/contract/dataParts';
import type { StreamChunk } from '../../../src-preload/contract/stream';

/** How often a growing line of a cell's repeated calls is re-sent while the cell runs. */
export const CELL_LINE_REFRESH_MS = 250;

interface Line {
  id: string;
  /** The line as first sent; each send is a copy of it with the counts below. */
  data: HostCallEventData;
  count: number;
  durationMs: number;
  emit: (chunk: StreamChunk) => void;
  sentAt: number;
  /** Calls counted since the line was last sent. */
  unsent: boolean;
}

export interface CallActivity {
  /** The step the call's activity line belongs to (absent: a call of no cell, or one that asked). */
  cellId?: string;
  signal: AbortSignal;
  emit?: (chunk: StreamChunk) => void;
}

/**
 * The activity lines of a cell's host calls. A cell that calls `host.read_file` in a loop
 * would otherwise add one line (one ledger row, one published chunk) per call: thousands
 * of identical lines in the window and a row per call on the main thread. Instead, calls
 * of one cell that succeeded without asking anyone share a line per method, target and
 * decision, whose `count` grows; the line is re-sent at most every CELL_LINE_REFRESH_MS
 * while the cell runs, and once more when the cell ends (its signal aborts before the
 * cell's result is handed on, so the last count precedes the cell's output in the stream).
 * A failed, refused or approved call keeps a line of its own, as a tool call does.
 */
export class CellCallActivity {
  private readonly cells = new WeakMap<AbortSignal, Map<string, Line>>();

  constructor(private readonly now: () => number = Date.now) {}

  report(ctx: CallActivity, data: HostCallEventData, fallbackId: string): void {
    const emit = ctx.emit;
    if (!emit) return;
    const shared = ctx.cellId && data.origin === 'cell' && data.status === 'ok' && data.approvalWaitMs === undefined && data.decidedBy !== 'user' && !ctx.signal.aborted;
    if (!shared) {
      emit(dataChunk('host-call', fallbackId, data));
      return;
    }
    const lines = this.linesOf(ctx.signal);
    const key = `${data.method}\0${data.target ?? ''}\0${data.decidedBy}`;
    const line = lines.get(key);
    if (!line) {
      const fresh: Line = { id: fallbackId, data, count: 1, durationMs: data.durationMs, emit, sentAt: 0, unsent: true };
      lines.set(key, fresh);
      this.send(fresh);
      return;
    }
    // Counted in place (a cell's loop of calls comes here once a call); a copy is made only to send.
    line.count++;
    line.durationMs += data.durationMs;
    line.emit = emit;
    line.unsent = true;
    if (this.now() - line.sentAt >= CELL_LINE_REFRESH_MS) this.send(line);
  }

  private send(line: Line): void {
    line.sentAt = this.now();
    line.unsent = false;
    line.emit(dataChunk('host-call', line.id, { ...line.data, count: line.count, durationMs: line.durationMs }));
  }

  private linesOf(signal: AbortSignal): Map<string, Line> {
    let lines = this.cells.get(signal);
    if (!lines) {
      const made = new Map<string, Line>();
      lines = made;
      this.cells.set(signal, made);
      signal.addEventListener(
        'abort',
        () => {
          for (const line of made.values()) if (line.unsent) this.send(line);
          made.clear();
        },
        { once: true },
      );
    }
    return lines;
  }
}
