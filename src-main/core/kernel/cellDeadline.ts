/**
 * The wall-clock limit of one running cell: fires once when it runs out, and can be
 * pushed back while the cell runs (the user extends it from the running cell's view).
 */
export class CellDeadline {
  private timer: NodeJS.Timeout | null = null;
  private endsAtMs: number;
  private limit: number;
  private fired = false;

  constructor(
    limitMs: number,
    private readonly onExpire: () => void,
    private readonly now: () => number = Date.now,
  ) {
    this.limit = limitMs;
    this.endsAtMs = this.now() + limitMs;
    this.arm();
  }

  /** The limit in force, from the cell's start (the first limit plus every extension). */
  get limitMs(): number {
    return this.limit;
  }

  get endsAt(): Date {
    return new Date(this.endsAtMs);
  }

  get expired(): boolean {
    return this.fired;
  }

  /** Pushes the end back by `ms`; false once the limit has already run out (the cell is being stopped). */
  extend(ms: number): boolean {
    if (this.fired || this.timer === null) return false;
    this.limit += ms;
    this.endsAtMs += ms;
    this.arm();
    return true;
  }

  clear(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    // setTimeout takes at most 2^31-1 ms; a longer limit re-arms when that runs out.
    const wait = Math.min(Math.max(0, this.endsAtMs - this.now()), 2 ** 31 - 1);
    this.timer = setTimeout(() => {
      if (this.now() < this.endsAtMs) return this.arm();
      this.timer = null;
      this.fired = true;
      this.onExpire();
    }, wait);
  }
}

/** "30 min", "90 s", "2 h": how a limit is shown in messages. */
export function formatLimit(ms: number): string {
  // Under ten seconds to the tenth ("0.5 s"): a limit given in milliseconds is not rounded to another.
  if (ms < 10_000) return `${Math.round(ms / 100) / 10} s`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 2 * 3600) return `${Math.round(s / 60)} min`;
  return `${Math.round((s / 3600) * 10) / 10} h`;
}
