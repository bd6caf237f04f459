import { AppError } from '../../../src-preload/contract/errors';

export const nowIso = (): string => new Date().toISOString();

export function notFound(what: string, id: string, hint: string): AppError {
  return new AppError('not_found', `No ${what} "${id}". ${hint}`);
}

export function parseJson<T>(text: string | null): T | null {
  return text === null ? null : (JSON.parse(text) as T);
}
