/**
 * Bounded exponential backoff with jitter that honours the provider's Retry-After.
 * Retries happen only before any output was streamed (the caller enforces that):
 * once a delta has reached the engine, replaying the call would duplicate it.
 */

export interface RetryPolicy {
  /** Retries after the first attempt. */
  maxRetries: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A Retry-After longer than this is not waited for: the error is reported instead. */
  maxRetryAfterMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  maxRetries: 3,
  baseDelayMs: 1000,
  maxDelayMs: 20_000,
  maxRetryAfterMs: 60_000,
};

/**
 * The wait before retry number `attempt` (1-based), or null to give up.
 * Jitter is "equal jitter": half fixed, half random, so retries of many clients spread
 * out while each still waits at least half the backoff.
 */
export function retryDelay(
  policy: RetryPolicy,
  attempt: number,
  retryAfter: number | null,
  random: () => number = Math.random,
): number | null {
  if (attempt > policy.maxRetries) return null;
  if (retryAfter !== null) return retryAfter > policy.maxRetryAfterMs ? null : retryAfter;
  const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
  return Math.round(backoff / 2 + (backoff / 2) * random());
}

/** Resolves after `ms`, or rejects with the signal's reason as soon as it aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
