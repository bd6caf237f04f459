/**
 * A timeout that counts only while the caller waits on the provider, armed lazily: a
 * stream reads thousands of parts a second, and a timer set and cleared around every read
 * cost more than the read's own bookkeeping. Here a wait only notes when it began; one
 * timer, re-armed for the time left when it fires during a later wait, checks whether the
 * current wait has lasted its limit. So a stream pays about one timer per limit period,
 * and a caller that holds a part (not waiting) is never timed out.
 */
export class WaitDeadline<Phase> {
  private timer: NodeJS.Timeout | null = null;
  /** When the timer fires (performance.now() clock). */
  private due = 0;
  /** The current wait: when it began, its limit and phase; null while nobody waits. */
  private waiting: { since: number; ms: number; phase: Phase } | null = null;

  constructor(private readonly expire: (phase: Phase) => void) {}

  /** Resolves as `promise` does; if it takes `ms` or longer, `expire(phase)` is called meanwhile. */
  async wait<T>(promise: PromiseLike<T>, phase: Phase, ms: number): Promise<T> {
    const since = performance.now();
    this.waiting = { since, ms, phase };
    // A timer due after this wait's limit (armed for a longer one) is brought forward.
    if (!this.timer || this.due > since + ms) this.arm(ms);
    try {
      return await promise;
    } finally {
      this.waiting = null;
    }
  }

  /** Stops the timer (the stream is over). */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    this.waiting = null;
  }

  private arm(delay: number): void {
    if (this.timer) clearTimeout(this.timer);
    this.due = performance.now() + delay;
    this.timer = setTimeout(() => this.check(), delay);
  }

  private check(): void {
    this.timer = null;
    const current = this.waiting;
    if (!current) return; // the next wait arms it again
    const left = current.since + current.ms - performance.now();
    if (left <= 0) this.expire(current.phase);
    else this.arm(left);
  }
}
