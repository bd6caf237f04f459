import { z } from 'zod';
import type { LlmTool } from '../llm/types';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { MaybePromise } from '../shared/maybePromise';

/** What a call may do to the world. Decides the default policy, parallelism and audit class. */
export type SideEffectClass = 'read' | 'write' | 'network' | 'exec';
export type PolicyAction = 'allow' | 'deny' | 'ask';

/** Where a call came from: a provider-native tool call, or a host call from inside a cell. */
export type CallOrigin = 'tool' | 'cell';

export interface ToolContext {
  sessionId: string;
  runId: string | null;
  /** Host path of the session workspace; every file tool is confined to it. */
  workspace: string;
  signal: AbortSignal;
  origin: CallOrigin;
  /** The calling cell, when a cell made the call: artifact provenance names it. */
  cell?: { generation: string; cellId: string; language: 'python' | 'r' };
  /** The model's tool call id (a tool call, not a cell): a tool streams preliminary output to its card under it. */
  toolCallId?: string;
  /** The run's stream, for a tool that shows progress while it runs (data parts, preliminary output). */
  emit?: (chunk: StreamChunk) => void;
}

export interface ToolOutput {
  /** What the model reads (the dispatcher truncates and, for outside content, annotates it). */
  text: string;
  /** Structured output for the UI and the audit record. */
  output?: unknown;
  /** Set when `text` came from outside the app: names the source in the untrusted markers. */
  untrustedSource?: string;
}

export interface ToolSpec<S extends z.ZodType> {
  name: string;
  description: string;
  input: S;
  sideEffect: SideEffectClass;
  /** The policy when no rule or grant decides: risky tools ask. */
  defaultPolicy: PolicyAction;
  /** Resources the call touches (`file:data/x.csv`, `url:https://...`); calls sharing one with a writer are serialised. */
  resourceKeys(args: z.output<S>): string[];
  /** What a permission rule and an approval name: a workspace path, a URL origin, a database. */
  target(args: z.output<S>): string;
  /**
   * The call itself. A tool whose work is synchronous and short (a small file read) may
   * answer at once: a cell's host call to it is then answered in the turn that read it.
   */
  execute(args: z.output<S>, ctx: ToolContext): MaybePromise<ToolOutput>;
  /** Names a cell uses for this tool (`host.read_file` -> read_text_file). */
  hostMethods?: string[];
  /** Bytes of model-facing text kept by the shared wrapper (UTF-8). */
  maxOutputBytes?: number;
  /** False for capabilities only cells may call. */
  exposeToModel?: boolean;
  /**
   * Offered on demand: not in the first request. The model finds it with find_tools (the
   * capability catalogue), and from then on the run's requests carry its schema. Keeps the
   * first request small however many capabilities are installed.
   */
  onDemand?: boolean;
  /** Ask for every call: session grants and allow rules do not skip the question (a deny rule still refuses). */
  askEveryTime?: boolean;
  /** The approval question's detail for a call (default: a preview of its arguments), e.g. a job's summary. */
  approvalDetail?(args: z.output<S>): string;
}

/** A defined tool, type-erased for the registry: `parse` checks the arguments with its schema. */
export interface Tool {
  readonly name: string;
  readonly description: string;
  readonly sideEffect: SideEffectClass;
  readonly defaultPolicy: PolicyAction;
  readonly hostMethods: readonly string[];
  readonly maxOutputBytes: number;
  readonly exposeToModel: boolean;
  readonly onDemand: boolean;
  /** Each call asks, even after a session grant or an "always" answer (MCP tools marked destructive). */
  readonly askEveryTime?: boolean;
  /** See ToolSpec.approvalDetail; called with parsed arguments. */
  approvalDetail?(args: unknown): string;
  parse(args: unknown): { ok: true; args: unknown } | { ok: false; error: string };
  resourceKeys(args: unknown): string[];
  target(args: unknown): string;
  execute(args: unknown, ctx: ToolContext): Promise<ToolOutput>;
  /** `execute` as the tool answers: at once when its work was synchronous (the dispatcher's path; absent: `execute`). */
  executeNow?(args: unknown, ctx: ToolContext): MaybePromise<ToolOutput>;
  llmTool(): LlmTool;
}

export const DEFAULT_MAX_OUTPUT_BYTES = 32 * 1024;

/** The JSON Schema providers get: the input side of the zod schema, without `$schema`. */
export function toJsonSchema(schema: z.ZodType): Record<string, unknown> {
  const { $schema: _drop, ...rest } = z.toJSONSchema(schema, { io: 'input' }) as Record<string, unknown>;
  return rest;
}

function describeIssues(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(arguments)'}: ${i.message}`).join('; ');
}

/** Tool.define: one place per tool for its schema, class, keys, target and behaviour. */
export function defineTool<S extends z.ZodType>(spec: ToolSpec<S>): Tool {
  const jsonSchema = toJsonSchema(spec.input);
  return {
    name: spec.name,
    description: spec.description,
    sideEffect: spec.sideEffect,
    defaultPolicy: spec.defaultPolicy,
    hostMethods: spec.hostMethods ?? [],
    maxOutputBytes: spec.maxOutputBytes ?? DEFAULT_MAX_OUTPUT_BYTES,
    exposeToModel: spec.exposeToModel ?? true,
    onDemand: spec.onDemand ?? false,
    ...(spec.askEveryTime ? { askEveryTime: true } : {}),
    ...(spec.approvalDetail ? { approvalDetail: (args: unknown) => spec.approvalDetail!(args as z.output<S>) } : {}),
    parse(args) {
      const r = spec.input.safeParse(args ?? {});
      return r.success ? { ok: true, args: r.data } : { ok: false, error: `invalid arguments for ${spec.name}: ${describeIssues(r.error)}` };
    },
    resourceKeys: (args) => spec.resourceKeys(args as z.output<S>),
    target: (args) => spec.target(args as z.output<S>),
    execute: async (args, ctx) => spec.execute(args as z.output<S>, ctx),
    executeNow: (args, ctx) => spec.execute(args as z.output<S>, ctx),
    llmTool: () => ({ name: spec.name, description: spec.description, inputSchema: jsonSchema }),
  };
}

/** The optional field risky tools take so the approval dialog can show the agent's reason. */
export const reasonField = z
  .string()
  .max(500)
  .optional()
  .describe('One sentence: why you need this. Shown to the user if approval is needed.');
