import { StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { errorMessage } from '../shared/errorMessage';
import type { McpServerConfig } from './config';
import { publicEndpoint } from './configSecrets';

const codeOf = (error: unknown): string | undefined => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

/**
 * Why a server could not start, in words that name the fix: "spawn foo ENOENT" and
 * "fetch failed" said neither what was wrong nor what to change in the entry.
 */
export function startProblem(config: McpServerConfig, error: unknown, timeoutMs: number): string {
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
    return `it did not answer the MCP handshake within ${Math.round(timeoutMs / 1000)} s; check that ${config.transport === 'stdio' ? 'the command starts an MCP server on stdio' : 'the url is the server’s MCP endpoint'}, or give a slow server longer with "timeout" in its entry (milliseconds)`;
  }
  if (config.transport === 'stdio') {
    const code = codeOf(error);
    if (code === 'ENOENT') return `the command "${config.command}" was not found${config.cwd ? ` (or its cwd "${config.cwd}" does not exist)` : ''}: install it, or give its full path as "command"`;
    if (code === 'EACCES') return `the command "${config.command}" is not executable: check its permissions, or give the interpreter as "command" and the script in "args"`;
    return errorMessage(error);
  }
  const at = publicEndpoint(config);
  if (error instanceof StreamableHTTPError) {
    if (error.code === 401 || error.code === 403) return `${at} refused the app (HTTP ${error.code}): check the credentials in the entry’s "headers" (for example "Authorization": "Bearer …")`;
    if (error.code === 404 || error.code === 405) return `${at} has no MCP endpoint (HTTP ${error.code}): check the url’s path (often /mcp)`;
    if ((error.code ?? 0) > 0) return `${at} answered HTTP ${error.code}: check the url and that the server is running`;
  }
  if (error instanceof TypeError && error.message === 'fetch failed') {
    const cause = (error as { cause?: unknown }).cause;
    const code = codeOf(cause) ?? (cause === undefined ? 'no answer' : errorMessage(cause));
    return `nothing answers at ${at} (${code}): check the url and that the server is running`;
  }
  return errorMessage(error);
}

/** The wait for a server's handshake and each page of its tool list when its entry sets no `timeout` (ms). */
export const DEFAULT_LIST_TIMEOUT_MS = 30_000;

/**
 * Why a server that started offers no tools: its tools/list did not answer in time. Shown as
 * its error (the state is "failed") until a later listing answers; names the entry's
 * `timeout`, since a server that lists through a slow backend needs only more time.
 */
export function listTimeoutProblem(configured: number | undefined): string {
  const ms = configured ?? DEFAULT_LIST_TIMEOUT_MS;
  const now = configured === undefined ? `the default is ${DEFAULT_LIST_TIMEOUT_MS}` : `now ${configured}`;
  return `it did not list its tools within ${Math.round(ms / 1000)} s, so it offers none: check that the server works (its own log may say why), or give it longer with "timeout" in its entry (milliseconds; ${now}), then Connect again`;
}
