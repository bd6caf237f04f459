/** Something held while it is used, released after a quiet while. */
export interface IdleExpiry {
  /** Marks a use now (cheap: a hot path may call it on every use). */
  touch(): void;
  /** Stops the timer: `onIdle` is not called (the holder released it itself). */
  cancel(): void;
}

/**
 * Calls `onIdle` once `idleMs` have passed since the last `touch()` (or since the start).
 * A touch only stamps the time; the one timer, when it fires, either calls `onIdle` or
 * waits the rest, so nothing is re-armed per use. The timer keeps no process alive.
 */
export function idleExpiry(idleMs: number, onIdle: () => void): IdleExpiry {
  let usedAt = performance.now();
  let timer: NodeJS.Timeout;
  const arm = (ms: number) => {
    timer = setTimeout(fire, ms);
    timer.unref();
  };
  const fire = () => {
    const idle = performance.now() - usedAt;
    if (idle >= idleMs) onIdle();
    else arm(idleMs - idle);
  };
  arm(idleMs);
  return {
    touch: () => {
      usedAt = performance.now();
    },
    cancel: () => clearTimeout(timer),
  };
}
