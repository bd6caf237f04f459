import { AppError } from '../../../src-preload/contract/errors';

let lastMs = Number.NaN;
let lastIso = '';

/** The time as ISO text; a burst of rows (a cell's host calls) in one millisecond formats it once. */
export function nowIso(): string {
  const ms = Date.now();
  if (ms !== lastMs) {
    lastMs = ms;
    lastIso = new Date(ms).toISOString();
  }
  return lastIso;
}

export function notFound(what: string, id: string, hint: string): AppError {
  return new AppError('not_found', `No ${what} "${id}". ${hint}`);
}

export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}

/** A write refused because a row it names (a run, a kernel generation, ...) is not in the ledger: better-sqlite3's extended result code. */
export function isForeignKeyViolation(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
