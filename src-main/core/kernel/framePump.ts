import type { KernelExitCause } from '../../../src-preload/contract/kernel';
import type { ExitInfo } from './exitInfo';
import { errorMessage } from '../shared/errorMessage';
import { LineSplitter, MAX_FRAME_BYTES, decodeFrame, type HostCallFrame, type ReadyFrame, type WarmFrame, type WorkerFrame } from './frames';
import { StreamCapture } from './streamCapture';

/** Everything a running cell hears from the worker, besides its stdout/stderr. */
export interface CellSink {
  cellId: string;
  onText(stream: 'stdout' | 'stderr', text: string): void;
  onDisplay(frame: Extract<WorkerFrame, { type: 'display' }>): void;
  onHostCall(frame: HostCallFrame): void;
  onResult(frame: Extract<WorkerFrame, { type: 'result' }>): void;
  /** A frame from the worker was invalid (forged or broken) and was dropped. */
  onDroppedFrame?(reason: string): void;
  /** The worker died before its `result` (its remaining output has been delivered). */
  onExit(info: ExitInfo): void;
}

/** What the pump needs from its process. */
export interface PumpHooks {
  send(frame: Record<string, unknown>): void;
  /** A `host_response` frame: on the worker's answer pipe (kernelProcess.ts `sendAnswer`). */
  answer(frame: Record<string, unknown>): void;
  ready(frame: ReadyFrame): void;
  kill(): void;
}

/**
 * The worker's three output pipes: stdout and stderr cut at the running cell's end
 * markers, and fd 3's frames routed to the running cell (or to start-up and warm-up
 * waiters). Knows nothing of spawning or of sessions.
 */
export class FramePump {
  /** Frames dropped since the process started, and the first reasons (for diagnostics). */
  readonly dropped = { count: 0, reasons: [] as string[] };
  /** What the worker wrote to stderr before it was ready (said when it fails to start). */
  stderrAtStart = '';
  /** Why the pump had the worker killed, said as its end instead of the bare signal. */
  killCause: KernelExitCause | null = null;
  private out = new StreamCapture();
  private err = new StreamCapture();
  private sink: CellSink | null = null;
  /** Releases the running cell's `outDone` (its end markers arrived, or the worker died). */
  private releaseOut: (() => void) | null = null;
  private warmWaiter: ((frame: WarmFrame) => void) | null = null;
  private isReady = false;
  private readonly splitter = new LineSplitter(
    (line) => this.onLine(line),
    (size) => this.fail(`the worker wrote a protocol frame over ${size} bytes`, { kind: 'frame_too_large', limitMiB: MAX_FRAME_BYTES / (1024 * 1024) }),
  );

  constructor(private readonly hooks: PumpHooks) {}

  attach(stdout: NodeJS.ReadableStream, stderr: NodeJS.ReadableStream, frames: NodeJS.ReadableStream): void {
    stdout.on('data', (c: Buffer) => this.out.push(c));
    stderr.on('data', (c: Buffer) => {
      if (!this.isReady && this.stderrAtStart.length < 8192) this.stderrAtStart += c.toString('utf8');
      this.err.push(c);
    });
    frames.on('data', (c: Buffer) => this.splitter.push(c));
  }

  /** Bytes of fd 3 read by the process itself (framePoll.ts), in order with the stream's. */
  pushFrames(chunk: Buffer): void {
    this.splitter.push(chunk);
  }

  /** A cell starts: its output goes to `sink` until its end markers; resolves when both arrived. */
  begin(sink: CellSink, marker: string): Promise<void> {
    this.sink = sink;
    let pending = 2;
    const outDone = new Promise<void>((resolve) => (this.releaseOut = resolve));
    const markerSeen = () => {
      if (--pending === 0) this.releaseOut?.();
    };
    this.out.begin(marker, (t) => sink.onText('stdout', t), markerSeen);
    this.err.begin(marker, (t) => sink.onText('stderr', t), markerSeen);
    return outDone;
  }

  /** The cell will see no more output (its worker is already dead). */
  releaseOutput(): void {
    this.releaseOut?.();
  }

  end(): void {
    this.sink = null;
    this.releaseOut = null;
    this.out.detach();
    this.err.detach();
  }

  /** The next `warm` frame goes to `waiter`. */
  onWarm(waiter: (frame: WarmFrame) => void): void {
    this.warmWaiter = waiter;
  }

  /** The worker is gone: what it wrote is delivered and the running cell hears of its death. */
  workerExited(exit: ExitInfo): void {
    this.out.end();
    this.err.end();
    this.releaseOut?.();
    this.sink?.onExit(exit);
  }

  /**
   * One line from fd 3. Frames are untrusted (a cell can write fd 3 itself): an invalid
   * one is dropped with its reason, and nothing a frame causes may throw into the event
   * loop, where it would end the whole app.
   */
  onLine(line: Buffer): void {
    try {
      const decoded = decodeFrame(line);
      if (decoded.ok) return this.onFrame(decoded.frame);
      this.dropped.count++;
      if (this.dropped.reasons.length < 10) this.dropped.reasons.push(decoded.reason);
      // A broken host call still gets an answer: the cell is waiting for one.
      if (decoded.hostCallId !== undefined) this.hooks.answer({ type: 'host_response', id: decoded.hostCallId, error: `the host call was malformed and not run (${decoded.reason})` });
      this.sink?.onDroppedFrame?.(decoded.reason);
    } catch (error) {
      this.dropped.count++;
      try {
        this.sink?.onDroppedFrame?.(`handling it failed: ${errorMessage(error)}`);
      } catch {
        // the count above is the record; the cell's note is best effort
      }
    }
  }

  private onFrame(frame: WorkerFrame): void {
    switch (frame.type) {
      case 'ready':
        this.isReady = true;
        this.hooks.ready(frame);
        return;
      case 'warm':
        this.warmWaiter?.(frame);
        this.warmWaiter = null;
        return;
      case 'display':
        if (this.sink && frame.id === this.sink.cellId) this.sink.onDisplay(frame);
        return;
      case 'host_call':
        if (this.sink) this.sink.onHostCall(frame);
        else this.hooks.answer({ type: 'host_response', id: frame.id, error: 'no cell is running' });
        return;
      case 'result':
        if (this.sink && frame.id === this.sink.cellId) {
          if (frame.outputs_drained === true) {
            this.out.finish();
            this.err.finish();
          }
          this.sink.onResult(frame);
        }
        return;
    }
  }

  /** The worker broke the protocol: it is killed, and the reason is said with its exit. */
  private fail(reason: string, cause: KernelExitCause): void {
    this.stderrAtStart += `\n${reason}`;
    this.killCause ??= cause;
    this.hooks.kill();
  }
}

