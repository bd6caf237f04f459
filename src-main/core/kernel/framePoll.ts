import fs from 'node:fs';

/**
 * After a host call is answered, the main thread reads the worker's frame pipe (fd 3)
 * itself for a short while instead of going back to sleep in the event loop.
 *
 * Why: a cell that makes host calls in a loop sends its next call a few tens of
 * microseconds after it reads an answer. If the main thread has gone to sleep by then, the
 * worker's write has to wake it, and on a virtual machine whose idle vCPU halts that wake-up
 * costs about as much as the rest of the call's transport (measured on this project's
 * 2-vCPU VM: a bare Node <-> Python ping-pong went from 31 to 21 us a round trip).
 *
 * Bounds, so the event loop keeps its turns and nothing is spent on idle cells:
 * - one poll lasts at most `windowUs`;
 * - after polls that found nothing, the next answers are not polled: 1 after the first such
 *   poll, 3 after a second one in a row, then 7, 15, ... up to `maxSkip`. A poll that finds a
 *   call, or a call read by the event loop within the window of its answer, ends the backoff.
 *   So a cell that computes between its calls costs a poll now and then, and a quick cell on
 *   a slow minute of the machine loses one call to the event loop per missed poll. (Turning
 *   polling off until a call came through the event loop within the window, as before, kept
 *   it off for as long as the machine stayed slow: such a call's time includes the main
 *   thread's own wake-up, which then alone exceeds the window. Measured: 3,500 to 11,000 of a
 *   burst's 17,000 calls went unpolled; with the backoff, about 300 of 22,000.)
 * - polls that find a call chain through microtasks, so after `chainMs` without a turn of
 *   the event loop the next poll waits for one turn (timers, IPC and the other kernels'
 *   pipes are served at least that often) and then starts from the loop's check phase. The
 *   main thread stays awake through that turn: a call read by the event loop instead would
 *   pay for the thread's wake-up.
 * Bytes it reads go to the same line splitter as the stream's, in order: it never polls while
 * the stream holds unread data or its own answer is still queued.
 */
export interface FramePollOptions {
  windowUs: number;
  chainMs: number;
  /** The most answers left unpolled after missed polls. */
  maxSkip: number;
}

export const DEFAULT_FRAME_POLL: FramePollOptions = { windowUs: 100, chainMs: 2, maxSkip: 63 };

/** The file descriptor under a child's stdio pipe stream (Node keeps it on the pipe handle). */
export function pipeFd(stream: unknown): number | null {
  const fd = (stream as { _handle?: { fd?: unknown } } | null)?._handle?.fd;
  return typeof fd === 'number' && fd >= 0 ? fd : null;
}

export class FramePoll {
  /** Polls made and polls that found bytes (diagnostics and tests). */
  readonly stats = { polls: 0, hits: 0 };
  /** Polls in a row that found nothing, and how many answers are still to go unpolled after them. */
  private misses = 0;
  private skip = 0;
  private answeredAt = 0;
  /** Answers given so far: a poll queued for one answer does not run after the next. */
  private answers = 0;
  private chainStart = 0;
  private readonly buf = Buffer.allocUnsafe(64 * 1024);

  constructor(
    private readonly fd: number,
    private readonly stream: NodeJS.ReadableStream & { readableLength?: number; readableFlowing?: boolean | null },
    private readonly onChunk: (chunk: Buffer) => void,
    private readonly options: FramePollOptions = DEFAULT_FRAME_POLL,
  ) {
    // A call that came through the event loop says how quick the cell is now. First among
    // the stream's listeners: an answer written by a later one (the frame pump's, inside
    // the event that delivered the call) must find its time set, not cleared after it.
    stream.prependListener('data', () => this.arrived());
  }

  /** Called right after a host call's answer was handed to the answer pipe. */
  afterAnswer(answerQueued: boolean): void {
    this.answeredAt = performance.now();
    const answer = ++this.answers;
    if (answerQueued || !this.streamDrained()) return;
    if (this.skip > 0) {
      this.skip--;
      return;
    }
    if (!this.chainStart) {
      this.chainStart = this.answeredAt;
      setImmediate(() => (this.chainStart = 0));
    } else if (this.answeredAt - this.chainStart > this.options.chainMs) {
      // The immediate that ends the chain was queued before this one: a new chain starts here.
      setImmediate(() => this.poll(answer, performance.now()));
      return;
    }
    // After the current microtask: whatever runs after the answer in this call finishes first.
    // (A resolved promise, not queueMicrotask: that one wraps each callback in an async resource.)
    void Promise.resolve().then(() => this.poll(answer, this.answeredAt));
  }

  private streamDrained(): boolean {
    return !this.stream.readableLength && this.stream.readableFlowing !== false;
  }

  private arrived(): void {
    // A call through the event loop that came within the window: the cell is quick again.
    if (this.answeredAt && performance.now() - this.answeredAt < this.options.windowUs / 1000) this.misses = this.skip = 0;
    this.answeredAt = 0;
  }

  /** Reads fd 3 for the call after answer number `answer`, until `from` + the window. */
  private poll(answer: number, from: number): void {
    // A later answer, or the call already read by the stream (during the loop's turn), took over.
    if (answer !== this.answers || !this.answeredAt || !this.streamDrained()) return;
    // The pipe may have closed since (its fd number could then name another file by now).
    if (pipeFd(this.stream) !== this.fd) return;
    this.stats.polls++;
    const deadline = from + this.options.windowUs / 1000;
    const limit = Error.stackTraceLimit;
    // EAGAIN is thrown: without stack traces each empty read costs a few microseconds less.
    Error.stackTraceLimit = 0;
    let n = -1;
    try {
      do {
        try {
          n = fs.readSync(this.fd, this.buf, 0, this.buf.length, null);
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') n = 0;
        }
      } while (n < 0 && performance.now() < deadline);
    } finally {
      Error.stackTraceLimit = limit;
    }
    if (n < 0) {
      // Nothing within the window: the event loop delivers it, and the next answers wait.
      this.misses = Math.min(this.misses + 1, 30);
      this.skip = Math.min(2 ** this.misses - 1, this.options.maxSkip);
      return;
    }
    this.answeredAt = 0;
    if (n === 0) {
      // End of file or an error: the stream sees it too and reports the worker's exit.
      this.skip = this.options.maxSkip;
      return;
    }
    this.misses = 0;
    this.stats.hits++;
    this.onChunk(Buffer.from(this.buf.subarray(0, n)));
  }
}
