/** Ctrl-C, and what `kill`, systemd and container runtimes send; the exit code says which (128 + its number). */
const STOP_SIGNALS = { SIGINT: 130, SIGTERM: 143 } as const;
type StopSignal = keyof typeof STOP_SIGNALS;

/** How long the second signal waits for the kernel and the data root to close before exiting anyway. */
const STOP_NOW_BOUND_MS = 3_000;

export interface CellStopper {
  /** Aborted at the first signal: a cell still waiting for its kernel never starts. */
  readonly signal: AbortSignal;
  /** The exit code of the signal received (130 for SIGINT, 143 for SIGTERM), or null. */
  readonly exitCode: number | null;
  /**
   * Awaited once the cell has ended: after the second signal it never settles, so the
   * command does not print or close anything while that signal closes the core and exits.
   */
  held(): Promise<void>;
  /** Removes the handlers (the cell ended). */
  dispose(): void;
}

/**
 * Jupyter's Ctrl-C for `kernel exec`: the first SIGINT (or SIGTERM) interrupts the cell,
 * which ends with KeyboardInterrupt and keeps what it printed; the second one closes the
 * kernel and the data root (bounded) and exits at once. Without a handler the process
 * died at the first Ctrl-C and the cell's output was lost.
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
  const handler = (signal: StopSignal) => {
    if (exitCode === null) {
      exitCode = STOP_SIGNALS[signal];
      opts.say(`[${signal}: interrupting the cell; send it again to stop the kernel and exit at once]`);
      controller.abort();
      opts.interrupt();
      return;
    }
    if (stopping) return;
    stopping = true;
    opts.say(`[${signal} again: stopping the kernel]`);
    const code = exitCode;
    const bound = setTimeout(() => opts.exit(code), STOP_NOW_BOUND_MS);
    void opts.close().finally(() => {
      clearTimeout(bound);
      opts.exit(code);
    });
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
    held: () => (stopping ? new Promise<void>(() => {}) : Promise.resolve()),
    dispose() {
      for (const [signal, listener] of listeners) process.removeListener(signal, listener);
    },
  };
}
