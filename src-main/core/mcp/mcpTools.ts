import type { CallToolResult, Tool as McpTool } from '@modelcontextprotocol/sdk/types.js';
import type { ToolContext, ToolOutput, Tool } from '../capabilities/define';
import { truncateForModel } from '../capabilities/truncate';
import type { EvidenceStore } from '../records/evidenceStore';
import { annotateUntrusted, neutraliseMarkers } from '../security/untrusted';
import { canonicalJson, resultToText, sha256 } from './resultText';
import type { McpToolPolicy } from './policy';

/** Bytes of a result's text kept before it is wrapped (the wrapper and evidence line fit in the tool's limit). */
const CONTENT_BYTES = 24 * 1024;
const MAX_OUTPUT_BYTES = 32 * 1024;
const DESCRIPTION_CHARS = 400;
/** A result's text as a cell (host.mcp.call) receives it and the ledger records it; the model sees CONTENT_BYTES. */
const OUTPUT_TEXT_CHARS = 1024 * 1024;

const forOutput = (text: string) =>
  text.length > OUTPUT_TEXT_CHARS ? { text: `${text.slice(0, OUTPUT_TEXT_CHARS)}\n[cut: the result is ${text.length.toLocaleString('en-US')} characters; ask the tool for less]`, text_truncated: true } : { text };

function structuredOutput(structured: unknown): Record<string, unknown> {
  if (structured === undefined) return {};
  const size = JSON.stringify(structured).length;
  return size > OUTPUT_TEXT_CHARS ? { structured_content_omitted: `${size.toLocaleString('en-US')} characters of structured content, over the ${OUTPUT_TEXT_CHARS.toLocaleString('en-US')} kept` } : { structured_content: structured };
}

/** How a registered MCP tool reaches its server and its current policy (owned by McpClients). */
export interface McpToolPort {
  call(server: string, tool: string, args: Record<string, unknown>, signal: AbortSignal): Promise<CallToolResult>;
  policy(server: string, tool: McpTool): McpToolPolicy;
  evidence(): EvidenceStore;
}

const slug = (s: string) => s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '') || 'x';

/**
 * The registry name of a server's tool: `mcp_<server>_<tool>` in the registry's alphabet
 * (lower-case, digits, `_`, at most 64). A long or clashing name gets a short hash of the
 * real pair, so two servers' `search` tools stay two tools.
 */
export function registryName(server: string, tool: string, taken: (name: string) => boolean): string {
  const plain = `mcp_${slug(server)}_${slug(tool)}`;
  if (plain.length <= 64 && !taken(plain)) return plain;
  const hash = sha256(`${server}\0${tool}`).slice(0, 8);
  return `${plain.slice(0, 55)}_${hash}`;
}

/** The JSON Schema the model sees: the server's, with our optional `reason` (shown in the approval dialog). */
function modelSchema(tool: McpTool): Record<string, unknown> {
  const schema = { ...(tool.inputSchema as Record<string, unknown>) };
  const properties = { ...((schema.properties as Record<string, unknown> | undefined) ?? {}) };
  if (!('reason' in properties)) properties.reason = { type: 'string', maxLength: 500, description: 'One sentence: why you need this. Shown to the user if approval is needed.' };
  return { ...schema, type: 'object', properties };
}

/** Required properties present and the arguments an object; the server checks the rest against its own schema. */
function parseArgs(tool: McpTool, args: unknown): { ok: true; args: unknown } | { ok: false; error: string } {
  const value = args ?? {};
  if (typeof value !== 'object' || Array.isArray(value)) return { ok: false, error: `invalid arguments for ${tool.name}: give an object of named arguments` };
  const required = Array.isArray(tool.inputSchema.required) ? (tool.inputSchema.required as string[]) : [];
  const missing = required.filter((k) => !(k in value));
  if (missing.length) return { ok: false, error: `invalid arguments for ${tool.name}: missing ${missing.join(', ')}` };
  return { ok: true, args: value };
}

/**
 * A server's tool as one of ours: on demand, through the one dispatcher, its policy read at
 * each call. `def` is the tool's current definition (the remembered list's until the server
 * has listed it live, then the live one), so a changed annotation changes the policy.
 */
export function mcpTool(name: string, server: string, def: () => McpTool, port: McpToolPort): Tool & { askEveryTime: boolean } {
  const toolName = def().name;
  const source = `MCP server ${server}, tool ${toolName}`;
  // The server wrote this text: one line, bounded, and no look-alike of our untrusted-data markers.
  const describe = (tool: McpTool) => `[MCP ${server}] ${neutraliseMarkers((tool.description ?? tool.title ?? tool.name).replace(/\s+/g, ' ').trim()).text}`.slice(0, DESCRIPTION_CHARS);
  const target = `${server}/${toolName}`;
  return {
    name,
    get description() {
      return describe(def());
    },
    // Read at each call: an override chosen in Settings applies without a restart.
    get sideEffect() {
      return port.policy(server, def()).sideEffect;
    },
    get defaultPolicy() {
      return port.policy(server, def()).defaultPolicy;
    },
    get askEveryTime() {
      return port.policy(server, def()).askEveryTime;
    },
    hostMethods: [],
    maxOutputBytes: MAX_OUTPUT_BYTES + 2048,
    exposeToModel: true,
    onDemand: true,
    parse: (args) => parseArgs(def(), args),
    resourceKeys: () => (port.policy(server, def()).sideEffect === 'read' ? [] : [`mcp:${server}`]),
    target: () => target,
    async execute(args: unknown, ctx: ToolContext): Promise<ToolOutput> {
      const tool = def();
      const { reason: _reason, ...rest } = args as Record<string, unknown>;
      const sent = tool.inputSchema.properties && 'reason' in tool.inputSchema.properties ? (args as Record<string, unknown>) : rest;
      const result = await port.call(server, tool.name, sent, ctx.signal);
      const plain = resultToText(result);
      const cut = truncateForModel(plain, CONTENT_BYTES, 'ask the tool for less');
      if (result.isError) {
        const text = `The MCP tool ${target} reported an error:\n${annotateUntrusted(source, cut.text).text}`;
        return { text, output: { server, tool: tool.name, is_error: true, ...forOutput(plain) } };
      }
      const argsHash = sha256(canonicalJson(sent));
      const resultHash = sha256(canonicalJson({ content: result.content ?? [], structuredContent: result.structuredContent ?? null }));
      const evidence = port.evidence().record({
        sessionId: ctx.sessionId,
        kind: 'retrieval',
        key: `mcp|${server}|${tool.name}|${argsHash}|${resultHash}`,
        title: `MCP ${target}`,
        snippet: plain.replace(/\s+/g, ' ').trim(),
        envelope: { source: 'mcp', server, tool: tool.name, arguments_sha256: argsHash, result_sha256: resultHash, retrieved_at: new Date().toISOString() },
      });
      // Wrapped here, not by the dispatcher, so the evidence line stays outside the untrusted block.
      const text = `${annotateUntrusted(source, cut.text).text}\nEvidence ${evidence.id} (${target}): cite it for claims taken from this result.`;
      return {
        text,
        output: { server, tool: tool.name, is_error: false, evidence_id: evidence.id, ...forOutput(plain), ...structuredOutput(result.structuredContent) },
      };
    },
    llmTool: () => ({ name, description: describe(def()), inputSchema: modelSchema(def()) }),
  };
}
