/**
 * Polite per-host pacing: requests to one host start at least `minIntervalMs` apart
 * (NCBI asks for at most 3 per second without a key; the others get a similar courtesy).
 * Slots are reserved synchronously, so concurrent callers queue in call order.
 */
export class HostRateLimiter {
  private next = new Map<string, number>();

  constructor(
    private readonly intervalFor: (host: string) => number,
    private readonly now: () => number = Date.now,
    private readonly sleep: (ms: number) => Promise<void> = (ms) => new Promise((r) => setTimeout(r, ms)),
  ) {}

  async acquire(host: string, signal?: AbortSignal): Promise<void> {
    const now = this.now();
    const at = Math.max(now, this.next.get(host) ?? 0);
    this.next.set(host, at + this.intervalFor(host));
    if (at > now) {
      await this.sleep(at - now);
      signal?.throwIfAborted();
    }
  }
}

/** Default spacing: NCBI hosts 350 ms (under 3/s), everyone else 200 ms. Loopback is unpaced. */
export function defaultInterval(host: string): number {
  if (host === '127.0.0.1' || host === 'localhost' || host === '[::1]') return 0;
  if (host.endsWith('ncbi.nlm.nih.gov')) return 350;
  return 200;
}
