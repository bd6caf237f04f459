/**
 * A bounded pool: at most `size` holders at once, the others wait in FIFO order. A waiter
 * whose signal aborts leaves the queue (and never holds a slot).
 */
export class Pool {
  private running = 0;
  private readonly waiting: { grant: () => void; signal: AbortSignal; drop: () => void }[] = [];

  constructor(private readonly size: number) {}

  /** Resolves with a release function once a slot is free, or with null if `signal` aborts first. */
  acquire(signal: AbortSignal): Promise<(() => void) | null> {
    if (signal.aborted) return Promise.resolve(null);
    if (this.running < this.size) {
      this.running++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve) => {
      const entry = {
        signal,
        grant: () => {
          signal.removeEventListener('abort', entry.drop);
          resolve(this.releaser());
        },
        drop: () => {
          const i = this.waiting.indexOf(entry);
          if (i >= 0) this.waiting.splice(i, 1);
          resolve(null);
        },
      };
      signal.addEventListener('abort', entry.drop, { once: true });
      this.waiting.push(entry);
    });
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.waiting.shift();
      // The slot passes straight to the next waiter (running stays the same).
      if (next) next.grant();
      else this.running--;
    };
  }

  sizes(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }
}
