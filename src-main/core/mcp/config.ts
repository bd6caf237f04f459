import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import type { PolicyAction } from '../capabilities/define';
import type { SettingsRepo } from '../ledger/settingsRepo';
import { errorMessage } from '../shared/errorMessage';

/**
 * MCP server configuration in the common `mcpServers` shape (the one Claude Desktop,
 * Cursor and most server READMEs print), so a user can paste a block they use elsewhere:
 *
 *   { "mcpServers": { "fs": { "command": "npx", "args": ["-y", "..."], "env": { "K": "v" } },
 *                     "remote": { "url": "https://host/mcp", "headers": { "Authorization": "Bearer ..." } } } }
 *
 * They live in one file, `<data root>/mcp.json`, edited by hand or from Settings → MCP
 * servers (which writes the same file): an entry may carry keys in `env` or `headers`, and
 * the ledger never holds secrets. The policy overrides chosen in Settings are in the ledger.
 */

export const MCP_CONFIG_FILE = 'mcp.json';
/** The ledger settings keys this layer owns (not part of AppSettings: the MCP section edits them). */
export const MCP_POLICY_KEY = 'mcp.policy';
/** The bearer token of `openai4s mcp --http` (generated on first use; Settings shows it to copy). */
export const MCP_HTTP_TOKEN_KEY = 'mcp.httpToken';

const SERVER_NAME = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;
const stringMap = z.record(z.string(), z.string());
const TIMEOUT_RULE = 'give the milliseconds to wait for the server, from 1000 to 600000';
/**
 * How long (ms) the app waits for each request to the server: the handshake, a page of its
 * tool list, a tool call (defaults: 30 s, and 120 s for a call). Milliseconds and the name
 * `timeout`, as other MCP clients write it, so a pasted entry keeps its meaning.
 */
const timeout = z.number({ error: TIMEOUT_RULE }).int({ error: TIMEOUT_RULE }).min(1000, { error: TIMEOUT_RULE }).max(600_000, { error: TIMEOUT_RULE }).optional();

const stdioSchema = z
  .object({
    type: z.literal('stdio').optional(),
    command: z.string().trim().min(1, 'command is empty'),
    args: z.array(z.string()).default([]),
    env: stringMap.default({}),
    cwd: z.string().optional(),
    timeout,
    disabled: z.boolean().optional(),
  })
  .strict();

const httpSchema = z
  .object({
    type: z.enum(['http', 'streamable-http', 'streamableHttp']).optional(),
    url: z
      .url({ protocol: /^https?$/, error: 'url must be an http(s) address' })
      // fetch refuses a url with a user or password in it (and the app would print it): they go in headers.
      .refine((u) => !/^[a-z]+:\/\/[^/?#]*@/i.test(u), 'url must not hold a user or password; give them in "headers", e.g. "Authorization": "Basic <base64 of user:password>"'),
    headers: stringMap.default({}),
    timeout,
    disabled: z.boolean().optional(),
  })
  .strict();

export type StdioServerConfig = z.output<typeof stdioSchema> & { transport: 'stdio' };
export type HttpServerConfig = z.output<typeof httpSchema> & { transport: 'http' };
export type McpServerConfig = (StdioServerConfig | HttpServerConfig) & { name: string };

/** Per-server and per-tool policy overrides chosen in Settings (tool keys are `server/tool`). */
export interface McpPolicyOverrides {
  servers: Record<string, PolicyAction>;
  tools: Record<string, PolicyAction>;
}

const policyAction = z.enum(['allow', 'ask', 'deny']);
export const policyOverridesSchema = z
  .object({ servers: z.record(z.string(), policyAction).default({}), tools: z.record(z.string(), policyAction).default({}) })
  .strict();

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.join('.') || '(entry)'}: ${i.message}`).join('; ');
}

/** One entry of an `mcpServers` block, checked; throws a message naming the entry and the problem. */
export function parseServerEntry(name: string, raw: unknown): McpServerConfig {
  if (!SERVER_NAME.test(name)) throw new Error(`MCP server name "${name}" must be 1-64 letters, digits, "_", "-" or ".", starting with a letter or digit.`);
  const entry = raw as Record<string, unknown> | null;
  if (!entry || typeof entry !== 'object' || Array.isArray(entry)) throw new Error(`MCP server "${name}": the entry must be an object with "command" (stdio) or "url" (Streamable HTTP).`);
  if (entry.type === 'sse') throw new Error(`MCP server "${name}": the legacy SSE transport is not supported; use the server's Streamable HTTP address (type "http") or run it over stdio.`);
  if ('url' in entry) {
    const r = httpSchema.safeParse(entry);
    if (!r.success) throw new Error(`MCP server "${name}": ${describeIssues(r.error)}`);
    return { ...r.data, transport: 'http', name };
  }
  if (!('command' in entry)) throw new Error(`MCP server "${name}": give "command" (and "args", "env") for a local server or "url" (and "headers") for a Streamable HTTP one.`);
  const r = stdioSchema.safeParse(entry);
  if (!r.success) throw new Error(`MCP server "${name}": ${describeIssues(r.error)}`);
  return { ...r.data, transport: 'stdio', name };
}

/**
 * A pasted or stored block: `{ "mcpServers": {...} }`, or the bare map of servers, or VS
 * Code's `{ "servers": {...} }`. Returns the good entries and one message per bad one.
 */
export function parseServersBlock(raw: unknown): { servers: McpServerConfig[]; errors: string[] } {
  const servers: McpServerConfig[] = [];
  const errors: string[] = [];
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return { servers, errors: ['The MCP configuration must be a JSON object: { "mcpServers": { "<name>": { ... } } }.'] };
  const obj = raw as Record<string, unknown>;
  const map = (obj.mcpServers ?? obj.servers ?? obj) as Record<string, unknown>;
  if (!map || typeof map !== 'object' || Array.isArray(map)) return { servers, errors: ['"mcpServers" must be an object of named servers.'] };
  for (const [name, entry] of Object.entries(map)) {
    try {
      servers.push(parseServerEntry(name, entry));
    } catch (error) {
      errors.push(errorMessage(error));
    }
  }
  return { servers, errors };
}

/** The config an entry is stored as (what a user would paste back), without our own fields. */
export function toStoredEntry(server: McpServerConfig): Record<string, unknown> {
  const { name: _n, transport, ...rest } = server;
  return transport === 'http' ? { type: 'http', ...rest } : rest;
}

export interface McpConfigSources {
  dataDir: string;
  /** The ledger's settings table; throws while the ledger is closed (then only the file counts). */
  settings(): SettingsRepo;
}

export interface LoadedConfig {
  servers: McpServerConfig[];
  /** Problems found (a bad file, a bad entry): shown in Settings and `openai4s mcp servers`, never thrown. */
  errors: string[];
  overrides: McpPolicyOverrides;
}

export function readFileBlock(file: string): { raw: unknown; error: string | null } {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { raw: null, error: null };
    return { raw: null, error: `${file}: ${errorMessage(error)}` };
  }
  try {
    return { raw: JSON.parse(text) as unknown, error: null };
  } catch (error) {
    return { raw: null, error: `${file} is not valid JSON (${errorMessage(error)}); fix it or remove it.` };
  }
}

export const mcpConfigFile = (dataDir: string): string => path.join(dataDir, MCP_CONFIG_FILE);

/** The file's servers and the overrides from Settings; problems are listed, never thrown. */
export function loadMcpConfig(sources: McpConfigSources): LoadedConfig {
  const errors: string[] = [];
  const file = mcpConfigFile(sources.dataDir);
  const { raw, error } = readFileBlock(file);
  if (error) errors.push(error);
  const fromFile = raw === null ? { servers: [], errors: [] } : parseServersBlock(raw);
  errors.push(...fromFile.errors.map((e) => `${file}: ${e}`));
  const { overrides, error: overridesError } = loadPolicyOverrides(sources);
  if (overridesError) errors.push(overridesError);
  return { servers: fromFile.servers.filter((s) => !s.disabled), errors, overrides };
}

/**
 * Only the overrides chosen in Settings (a ledger read, no file): what a tool's policy
 * needs at each call, without re-reading mcp.json.
 */
export function loadPolicyOverrides(sources: Pick<McpConfigSources, 'settings'>): { overrides: McpPolicyOverrides; error: string | null } {
  try {
    const policy = policyOverridesSchema.safeParse(sources.settings().get<unknown>(MCP_POLICY_KEY) ?? {});
    if (policy.success) return { overrides: policy.data, error: null };
    return { overrides: { servers: {}, tools: {} }, error: `Settings: the stored MCP policy overrides are malformed (${describeIssues(policy.error)}); they are ignored until saved again.` };
  } catch {
    // The ledger is closing or locked: the file's servers still work, with default policies.
    return { overrides: { servers: {}, tools: {} }, error: null };
  }
}
