/**
 * The error half of the `{ok, data | error}` envelope. The renderer imports the types
 * only (`import type`); AppError is thrown by main-side handlers.
 */
export type ErrorCode =
  | 'forbidden_sender'
  | 'unknown_route'
  | 'invalid_input'
  | 'not_found'
  | 'conflict'
  | 'revision_conflict'
  | 'not_configured'
  | 'unavailable'
  /** A safety layer refused (a flagged cell that was not approved). */
  | 'refused'
  | 'internal';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
}

export type Envelope<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/** Thrown by handlers to answer with a specific code; anything else becomes `internal`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'AppError';
  }
}
