import { z } from 'zod';
import { route } from './define';

/**
 * MCP servers the agent may use (issue 22): the configured servers (the data root's
 * mcp.json, in the common `mcpServers` shape), their state, their tools with the policy
 * in force, per-server and per-tool overrides, and the bearer token of `openai4s mcp --http`.
 */

export type McpPolicyAction = 'allow' | 'ask' | 'deny';
export type McpServerState = 'stopped' | 'starting' | 'ready' | 'crashed' | 'failed';

export interface McpToolAnnotations {
  title?: string;
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

/** What a tool's annotations make it: destructive, read-only (closed or open world), a write (closed or open world), or unannotated. */
export type McpBasisCode = 'destructive' | 'read_only' | 'read_only_open' | 'write_closed' | 'write_open' | 'unannotated';

export interface McpToolView {
  server: string;
  name: string;
  /** The name the model and the dispatcher use (`mcp_<server>_<tool>`). */
  registeredAs: string | null;
  description: string;
  annotations: McpToolAnnotations | null;
  /** The policy in force: the override if any, else the annotations'. */
  policy: McpPolicyAction;
  /** Asks on each call (destructive tools without an override). */
  askEveryTime: boolean;
  /** Why, in words ("read-only", "destructive: asks every time", ...). */
  basis: string;
  /** Which of the annotation cases `basis` says, for the window to say in its language. */
  basisCode?: McpBasisCode;
  override: McpPolicyAction | null;
}

export interface McpServerView {
  name: string;
  transport: 'stdio' | 'http';
  /** The command line or the url, each key in them shown as <hidden>; never env values or headers (they may hold secrets). */
  endpoint: string;
  state: McpServerState;
  error: string | null;
  /** Tools the app left out of the server's list, one line each (an input schema or a list over the limits). */
  skipped: string[];
  /** null until the server has been started once. */
  tools: McpToolView[] | null;
  override: McpPolicyAction | null;
}

export interface McpView {
  /** Where the servers are kept (edit it by hand, or add here). */
  configFile: string;
  /** Problems in the configuration (a bad entry, invalid JSON), never thrown. */
  errors: string[];
  servers: McpServerView[];
  /** The bearer token `openai4s mcp --http` requires (copy it into the client). */
  httpToken: string;
}

/** A server name as in `mcpServers` (letters, digits, "_", "-", "."). */
const serverName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/, 'a server name is 1-64 letters, digits, "_", "-" or "."');
const policy = z.enum(['allow', 'ask', 'deny']);

export const mcpRoutes = {
  'mcp.list': route<McpView>()(z.object({}).strict().default({})),
  /** Adds (or replaces) the servers of a pasted block: `{"mcpServers": {...}}` or the bare map. */
  'mcp.add': route<McpView>()(z.object({ json: z.string().trim().min(2, 'paste a JSON object').max(100_000) }).strict()),
  'mcp.remove': route<McpView>()(z.object({ name: serverName }).strict()),
  /** Starts the server now and lists its tools. */
  'mcp.connect': route<McpView>()(z.object({ name: serverName }).strict()),
  /** Sets (or with `policy: null` clears) the override of a server, or of one of its tools. */
  'mcp.policy.set': route<McpView>()(z.object({ server: serverName, tool: z.string().min(1).max(128).nullable().default(null), policy: policy.nullable() }).strict()),
};
