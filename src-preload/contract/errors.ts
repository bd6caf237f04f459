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

/**
 * The case of an error, named beside its English `message` so a window can say it in its
 * own language (src-renderer/src/errors/envelopeText.ts). Optional: an answer without it
 * (an older main, an error the renderer made itself) is shown by its message. The router
 * names its own cases (a request its schema refused, a crash) and otherwise the case of the
 * error's code, unless the thrower named a finer one (`shutting_down`, `run_not_finished`).
 */
export type ErrorReason =
  /** The request did not fit the route's schema (the app's own mistake, not the user's). */
  | 'invalid_request'
  | 'unknown_route'
  | 'forbidden_sender'
  /** A handler crashed. */
  | 'internal'
  | 'invalid_input'
  | 'not_found'
  /** Busy, already there, or changed meanwhile (the codes conflict and revision_conflict). */
  | 'conflict'
  | 'refused'
  | 'unavailable'
  | 'not_configured'
  /** The app is closing; nothing new starts. */
  | 'shutting_down'
  /** A retry or edit of a run that is still going. */
  | 'run_not_finished';

export interface ErrorBody {
  code: ErrorCode;
  message: string;
  reason?: ErrorReason;
}

export type Envelope<T> = { ok: true; data: T } | { ok: false; error: ErrorBody };

/** Thrown by handlers to answer with a specific code; anything else becomes `internal`. */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** A case finer than the code; the router names the code's own case otherwise. */
    readonly reason?: ErrorReason,
  ) {
    super(message);
    this.name = 'AppError';
  }
}
