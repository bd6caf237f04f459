export type NavigatorErrorCode = 'not_configured' | 'unauthorized' | 'rate_limited' | 'http_error' | 'network' | 'malformed_response' | 'upstream_error' | 'cancelled';

/** Everything the Science Navigator can fail with, named with what to do (never a raw TypeError). */
export class NavigatorError extends Error {
  constructor(
    readonly code: NavigatorErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(`Science Navigator: ${message}`);
    this.name = 'NavigatorError';
  }
}

