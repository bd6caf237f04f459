import type { ErrorBody } from '../../../src-preload/contract';
import { toErrorBody } from '../api/bridge';

/** Something the window fetches from main: whether it is on its way, the data, the last error. */
export interface Loadable<T> {
  status: 'idle' | 'loading' | 'ready' | 'error';
  data: T;
  error: ErrorBody | null;
}

/** Not asked for yet, showing `data` (an empty list, or null). */
export function idle<T>(data: T): Loadable<T> {
  return { status: 'idle', data, error: null };
}

/**
 * A loader for one Loadable field of the store. Each call marks the field `loading`
 * (its data stays on screen unless `start` replaces it), then `ready` with what
 * `fetch` answered or `error` with the failure, the last data kept under the error.
 * Only the newest call may settle the field: an answer to an older one (a slow load
 * of the session the user already left) is dropped.
 */
export function createLoader<F extends Loadable<unknown>>(write: (change: (field: F) => F) => void) {
  let newest = 0;
  return async function load(
    fetch: () => Promise<F['data']>,
    start: (field: F) => F = (field) => field,
  ): Promise<void> {
    const id = ++newest;
    write((field) => ({ ...start(field), status: 'loading' }));
    try {
      const data = await fetch();
      if (id === newest) write((field) => ({ ...field, status: 'ready', data, error: null }));
    } catch (error) {
      if (id === newest) write((field) => ({ ...field, status: 'error', error: toErrorBody(error) }));
    }
  };
}
