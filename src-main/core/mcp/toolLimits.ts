import { ToolSchema, type Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import { neutraliseMarkers } from '../security/untrusted';
import { inputSchemaProblem } from './schemaCheck';

/**
 * What the app takes from a server's tool list. A server is outside code: its input schemas
 * go into the model's requests once found, its descriptions into the catalogue and Settings,
 * so an unbounded schema or list would blow the request budget or the app's memory. A tool
 * over a limit is left out whole (a cut schema would describe other arguments), and the
 * note names the server, the tool and the limit.
 */
export const MCP_TOOL_LIMITS = {
  /** Tools kept of one server; the rest are left out. */
  maxTools: 500,
  /** tools/list pages read (a server that pages forever is stopped here). */
  maxPages: 20,
  /** The MCP spec's own limit for a tool name. */
  maxNameChars: 128,
  /** The input schema as JSON. */
  maxSchemaBytes: 16 * 1024,
  /** Objects and arrays nested in the input schema. */
  maxSchemaDepth: 24,
  /** A longer description is shortened (the catalogue shows 400 characters of it). */
  maxDescriptionChars: 2_000,
  maxTitleChars: 200,
  /** Objects and arrays nested in a call's result: deeper, the app's own JSON writing (stack-bound) would fail on it. */
  maxResultDepth: 256,
} as const;

const HINTS = ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const;

/** Nesting depth of a JSON value, without recursion; stops counting past `limit`. */
export function depthOf(value: unknown, limit: number): number {
  let deepest = 0;
  const stack: { v: unknown; d: number }[] = [{ v: value, d: 0 }];
  while (stack.length) {
    const { v, d } = stack.pop()!;
    if (!v || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > limit) return deepest;
    for (const child of Object.values(v as Record<string, unknown>)) stack.push({ v: child, d: d + 1 });
  }
  return deepest;
}

const shorten = (s: string | undefined, max: number) => (s === undefined ? undefined : s.length > max ? `${s.slice(0, max - 1)}…` : s);

/**
 * Characters a tool name must not carry: controls (a terminal escape, a newline), invisible
 * format characters (a right-to-left override that shows "exe.txt" for "txt.exe") and
 * spaces. The name is shown in the approval dialog, Settings, `openai4s mcp servers` and
 * the model's messages, where such characters could make one tool read as another.
 */
const UNSAFE_NAME = /[\p{Cc}\p{Cf}\p{Z}]/u;
/** Controls (but line breaks and tabs) and direction overrides in a description or title: dropped, the rest kept. */
const UNSAFE_TEXT = /[\p{Cc}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/gu;
const clean = (s: string | undefined) => s?.replace(UNSAFE_TEXT, (c) => (c === '\n' || c === '\t' ? c : ''));
/** A name as a note may quote it: every unsafe character written as an escape. */
const quoted = (name: string) => shorten(name, 60)!.replace(new RegExp(UNSAFE_NAME.source, 'gu'), (c) => `\\u${c.codePointAt(0)!.toString(16).padStart(4, '0')}`);
const bytes = (n: number) => `${n.toLocaleString('en-US')} bytes`;

/** Why a tool is left out, or null when it is kept. */
function refusal(tool: McpTool): string | null {
  const L = MCP_TOOL_LIMITS;
  if (!tool.name || tool.name.length > L.maxNameChars) return `its name is ${tool.name.length.toLocaleString('en-US')} characters, over the ${L.maxNameChars} MCP allows`;
  if (UNSAFE_NAME.test(tool.name)) return 'its name has control, invisible or space characters, which MCP tool names may not hold';
  const depth = depthOf(tool.inputSchema, L.maxSchemaDepth);
  if (depth > L.maxSchemaDepth) return `its input schema nests more than ${L.maxSchemaDepth} levels deep`;
  const size = Buffer.byteLength(JSON.stringify(tool.inputSchema));
  if (size > L.maxSchemaBytes) return `its input schema is ${bytes(size)}, over the ${bytes(L.maxSchemaBytes)} offered to a model`;
  const invalid = inputSchemaProblem(tool.inputSchema);
  if (invalid) return `${invalid}, so a model provider would refuse every request that offers it`;
  return null;
}

/** The schema with each string value free of untrusted-data marker look-alikes (it reaches the model's tool list). Depth is checked first. */
function neutraliseStrings(value: unknown): unknown {
  if (typeof value === 'string') return neutraliseMarkers(value).text;
  if (Array.isArray(value)) return value.map(neutraliseStrings);
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, neutraliseStrings(v)]));
  return value;
}

/** A kept tool as the app stores it: only the fields it reads, long texts shortened. */
function kept(tool: McpTool): McpTool {
  const annotations = tool.annotations
    ? Object.fromEntries([...HINTS.filter((h) => typeof tool.annotations![h] === 'boolean').map((h) => [h, tool.annotations![h]]), ...(tool.annotations.title ? [['title', shorten(clean(tool.annotations.title), MCP_TOOL_LIMITS.maxTitleChars)]] : [])])
    : undefined;
  return {
    name: tool.name,
    ...(tool.title === undefined ? {} : { title: shorten(clean(tool.title), MCP_TOOL_LIMITS.maxTitleChars) }),
    ...(tool.description === undefined ? {} : { description: shorten(clean(tool.description), MCP_TOOL_LIMITS.maxDescriptionChars) }),
    inputSchema: neutraliseStrings(tool.inputSchema) as McpTool['inputSchema'],
    ...(annotations ? { annotations } : {}),
  };
}

export interface BoundedTools {
  tools: McpTool[];
  /** One line per tool left out (or for the rest of a list over the limit), naming server, tool and limit. */
  skipped: string[];
}

/** The tools of one server within the limits, with what was left out and why. */
export function boundTools(server: string, listed: McpTool[], pagesLeft = false): BoundedTools {
  const tools: McpTool[] = [];
  const skipped: string[] = [];
  const seen = new Set<string>();
  for (const tool of listed) {
    if (tools.length >= MCP_TOOL_LIMITS.maxTools) {
      skipped.push(`MCP server "${server}" lists more than ${MCP_TOOL_LIMITS.maxTools} tools; the app keeps the first ${MCP_TOOL_LIMITS.maxTools} and leaves out the rest (from "${quoted(tool.name)}").`);
      break;
    }
    const why = refusal(tool);
    if (why) {
      skipped.push(`MCP server "${server}" tool "${quoted(tool.name)}" is left out: ${why}; only its author can fix it.`);
      continue;
    }
    if (seen.has(tool.name)) continue;
    seen.add(tool.name);
    tools.push(kept(tool));
  }
  if (pagesLeft && tools.length < MCP_TOOL_LIMITS.maxTools) {
    skipped.push(`MCP server "${server}" pages its tool list past ${MCP_TOOL_LIMITS.maxPages} pages; the app stops there and leaves out the rest.`);
  }
  return { tools, skipped };
}

/** The fields of a listed tool the app reads, checked as MCP defines them (an output schema, icons and the rest are not read). */
const listedTool = ToolSchema.pick({ name: true, title: true, description: true, inputSchema: true, annotations: true });

/**
 * A tools/list page's entries one by one: a tool that is not valid MCP is left out with the
 * reason, and the server's other tools are kept (checking the page whole, as the SDK does,
 * lost every tool of the server to one bad schema, and said nothing).
 */
export function parseListedTools(server: string, listed: readonly unknown[]): BoundedTools {
  const tools: McpTool[] = [];
  const skipped: string[] = [];
  for (const raw of listed) {
    const parsed = listedTool.safeParse(raw);
    if (parsed.success) {
      tools.push(parsed.data as McpTool);
      continue;
    }
    const name = raw && typeof raw === 'object' && typeof (raw as { name?: unknown }).name === 'string' ? quoted((raw as { name: string }).name) : '(no name)';
    const issue = parsed.error.issues[0]!;
    skipped.push(`MCP server "${server}" tool "${name}" is left out: its definition is not valid MCP (${issue.path.join('.') || 'the entry'}: ${issue.message}); only its author can fix it.`);
  }
  return { tools, skipped };
}
