/** Ctrl-C, and what `kill`, systemd and container runtimes send; the exit code says which (128 + its number). */
const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof STOP_SIGNALS;

/** How long stopping at once waits for the kernel and the data root to close before exiting anyway. */
const STOP_NOW_BOUND_MS = 3_000;

export interface CellStopper {
  /** Aborted at the first signal: a cell still waiting for its kernel never starts. */
  readonly signal: AbortSignal;
  /** The exit code of the signal received (130 for SIGINT, 143 for SIGTERM), or null. */
  readonly exitCode: number | null;
  /** The cell's code was handed to the kernel (what a SIGTERM then says it stopped). */
  markSent(): void;
  /**
   * Awaited once the cell has ended: while the cell is being stopped at once it never
   * settles, so the command does not print or close anything while the stop closes the
   * core and exits.
   */
  held(): Promise<void>;
  /** Removes the handlers (the cell ended). */
  dispose(): void;
}

/**
 * Jupyter's Ctrl-C for `kernel exec`: the first SIGINT interrupts the cell, which ends with
 * KeyboardInterrupt and keeps what it printed; the second one closes the kernel and the
 * data root (bounded) and exits at once. Without a handler the process died at the first
 * Ctrl-C and the cell's output was lost.
 *
 * SIGTERM asks the process to end (`kill`, systemd, a container runtime, a CI timeout),
 * and a cell may catch or ignore KeyboardInterrupt: it stops the cell the way a second
 * Ctrl-C does, at any point, says so in one line and exits 143.
 */
export function stopCellOnSignals(opts: {
  /** Interrupts the running cell. */
  interrupt(): void;
  /** Closes the kernel and the core before the process exits. */
  close(): Promise<void>;
  say(text: string): void;
  exit(code: number): void;
}): CellStopper {
  const controller = new AbortController();
  let exitCode: number | null = null;
  let stopping = false;
  let sent = false;

  /** Closes the kernel and the core (bounded), says `done` (given whether they closed in time), and exits. */
  const stopNow = (code: number, done: (closed: boolean) => string | null) => {
    stopping = true;
    exitCode = code;
    controller.abort();
    let finished = false;
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      const line = done(closed);
      if (line) opts.say(line);
      opts.exit(code);
    };
    const bound = setTimeout(() => finish(false), STOP_NOW_BOUND_MS);
    void opts.close().finally(() => {
      clearTimeout(bound);
      finish(true);
    });
  };

  const handler = (signal: StopSignal) => {
    if (stopping) return;
    if (signal === 'SIGTERM') {
      const what = sent ? 'the cell was stopped' : 'the cell was stopped before it started (none of it ran)';
      // Past the bound the kernel still ends with this process (its sandbox dies with its parent);
      // what was cut short is the rest of the closing (a first kernel-cache build, say).
      stopNow(STOP_SIGNALS.SIGTERM, (closed) =>
        closed ? `[SIGTERM: ${what}${sent ? ' and its kernel shut down' : ''}]` : `[SIGTERM: ${what}; closing the data root took over ${STOP_NOW_BOUND_MS / 1000} s and was cut short]`,
      );
      return;
    }
    if (exitCode === null) {
      exitCode = STOP_SIGNALS[signal];
      opts.say(`[${signal}: interrupting the cell; send it again to stop the kernel and exit at once]`);
      controller.abort();
      opts.interrupt();
      return;
    }
    opts.say(`[${signal} again: stopping the kernel]`);
    stopNow(exitCode, () => null);
  };
  const listeners = (Object.keys(STOP_SIGNALS) as StopSignal[]).map((signal) => {
    const listener = () => handler(signal);
    process.on(signal, listener);
    return [signal, listener] as const;
  });
  return {
    signal: controller.signal,
    get exitCode() {
      return exitCode;
    },
    markSent() {
      sent = true;
    },
    held: () => (stopping ? new Promise<void>(() => {}) : Promise.resolve()),
    dispose() {
      for (const [signal, listener] of listeners) process.removeListener(signal, listener);
    },
  };
}
