/**
 * How long a server asked us to wait before retrying: `Retry-After` as seconds or an HTTP
 * date (RFC 9110), or OpenAI's `retry-after-ms`. One reading for the model providers
 * (llm/) and the science databases (science/), so both honour the same answers.
 */

const NUMBER = /^\d+(\.\d+)?$/;

/** A `Retry-After` value in milliseconds; null when absent or unreadable. */
export function retryAfterMs(header: string | null | undefined, now = Date.now()): number | null {
  if (header === null || header === undefined) return null;
  const value = header.trim();
  if (NUMBER.test(value)) return Math.ceil(Number(value) * 1000);
  const at = Date.parse(value);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** The wait a response's headers ask for (`retry-after-ms` first, then `Retry-After`); `header` looks a name up case-insensitively. */
export function retryAfterFromHeaders(header: (lowerCaseName: string) => string | null | undefined, now = Date.now()): number | null {
  const ms = header('retry-after-ms')?.trim();
  if (ms !== undefined && NUMBER.test(ms)) return Math.ceil(Number(ms));
  return retryAfterMs(header('retry-after'), now);
}
