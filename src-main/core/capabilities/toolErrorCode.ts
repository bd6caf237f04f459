import type { ToolErrorCode } from '../../../src-preload/contract/stream';
import { AppError } from '../../../src-preload/contract/errors';
import { EgressFailedError, EgressRefusedError } from '../security/egress';
import { ProtectedPathError, WorkspaceEscapeError, WorkspaceNotFoundError } from '../workspace/safePath';
import { ConnectorError } from '../science/errors';

/**
 * The case of a tool call that threw, named for the window (ToolErrorCode) beside the
 * English text the model reads. It looks at what was thrown (and what that wrapped, its
 * `cause` chain), never at the words, so a reworded message keeps its code. A case it
 * does not know is `failed`: the window then heads the text with "the tool failed".
 */

/** The MCP SDK's RequestTimeout (JSON-RPC -32001): a server that did not answer the call in time. */
const MCP_REQUEST_TIMEOUT = -32001;
const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'ESOCKETTIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT']);

function codeOf(error: unknown): unknown {
  return error && typeof error === 'object' ? (error as { code?: unknown }).code : undefined;
}

function nameOf(error: unknown): unknown {
  return error && typeof error === 'object' ? (error as { name?: unknown }).name : undefined;
}

/** One thrown value's own case, or null when it names none (its cause may). */
function ownCode(error: unknown): ToolErrorCode | null {
  if (error instanceof EgressRefusedError) return 'network_refused';
  if (error instanceof WorkspaceEscapeError) return 'outside_workspace';
  if (error instanceof ProtectedPathError) return 'protected_path';
  if (error instanceof WorkspaceNotFoundError) return 'not_found';
  if (error instanceof EgressFailedError && error.kind !== 'failed') return error.kind === 'timeout' ? 'timed_out' : 'cancelled';
  if (error instanceof AppError) {
    if (error.code === 'not_found') return 'not_found';
    if (error.code === 'invalid_input') return 'invalid_arguments';
    return null;
  }
  if (error instanceof ConnectorError) {
    if (error.code === 'not_found') return 'not_found';
    if (error.code === 'invalid_request') return 'invalid_arguments';
    if (error.code === 'cancelled') return 'cancelled';
    return null;
  }
  const name = nameOf(error);
  const code = codeOf(error);
  if (name === 'TimeoutError' || (typeof code === 'string' && TIMEOUT_CODES.has(code))) return 'timed_out';
  if (name === 'McpError' && code === MCP_REQUEST_TIMEOUT) return 'timed_out';
  if (name === 'AbortError') return 'cancelled';
  if (code === 'ENOENT') return 'not_found';
  return null;
}

/** The case of a call that threw; `signal` is the run's (stopped: the call was cancelled, whatever it threw). */
export function toolFailureCode(error: unknown, signal?: AbortSignal): ToolErrorCode {
  if (signal?.aborted) return 'cancelled';
  let current: unknown = error;
  // A bounded walk: a cause chain may loop.
  for (let depth = 0; depth < 5 && current; depth++) {
    const found = ownCode(current);
    if (found) return found;
    current = current && typeof current === 'object' ? (current as { cause?: unknown }).cause : undefined;
  }
  return 'failed';
}
