/**
 * A value now, or a promise of it later. The host-call path uses it so a call whose every
 * step is synchronous (a small file read, allowed by policy, journaled audit) is answered in
 * the same turn of the event loop that read it, without a promise hop per step; a step that
 * must wait (an approval, a network fetch, a commit) turns the rest of the path into promises.
 */
export type MaybePromise<T> = T | Promise<T>;

export function isThenable<T = unknown>(value: unknown): value is PromiseLike<T> {
  return typeof (value as PromiseLike<unknown> | null)?.then === 'function';
}

/** `f(value)` now if `value` is here, otherwise once it settles (a rejection passes through). */
export function andThen<T, U>(value: MaybePromise<T>, f: (v: T) => MaybePromise<U>): MaybePromise<U> {
  return isThenable<T>(value) ? Promise.resolve(value).then(f) : f(value);
}
