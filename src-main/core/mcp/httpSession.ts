import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { errorMessage } from '../shared/errorMessage';

/**
 * How a request to a Streamable HTTP server failed when the connection, not the server's
 * answer, is at fault. `session_gone`: the server answered 404 to the session the app holds,
 * which the MCP spec says means it no longer knows it (it restarted) and the client must
 * initialize again; the request was not handled. `unreachable`: no answer came (the server
 * stopped, the network broke); whether it handled the request is unknown.
 */
export type HttpLoss = { kind: 'session_gone' } | { kind: 'unreachable'; why: string };

export function httpLoss(error: unknown): HttpLoss | null {
  if (error instanceof StreamableHTTPError && error.code === 404) return { kind: 'session_gone' };
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = (error as { cause?: unknown }).cause;
    return { kind: 'unreachable', why: cause === undefined ? 'fetch failed' : errorMessage(cause) };
  }
  return null;
}

/** A call the server never handled because its session was gone: safe to make again once, on a new session. */
export class McpSessionGone extends Error {
  constructor(server: string, tool: string) {
    super(`MCP server "${server}" no longer knew the app’s session (it restarted), so ${tool} was not called; the app opens a new session on the next call.`);
    this.name = 'McpSessionGone';
  }
}
