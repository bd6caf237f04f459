import type { ScienceDatabase } from '../../../src-preload/contract/evidence';

export type ConnectorErrorCode =
  | 'invalid_request'
  | 'not_found'
  | 'http_error'
  | 'network'
  | 'malformed_response'
  | 'too_large'
  | 'not_configured'
  | 'cancelled';

/**
 * Everything a connector can fail with, named for the model and the user: which
 * database, which request, what went wrong and what to do. Never a raw TypeError.
 */
export class ConnectorError extends Error {
  constructor(
    readonly database: ScienceDatabase | 'science',
    readonly code: ConnectorErrorCode,
    message: string,
    readonly status?: number,
  ) {
    super(`${database}: ${message}`);
    this.name = 'ConnectorError';
  }
}
