import type { CitedAnswer } from '../../../src-preload/contract/answer';
import type { StreamChunk, ToolErrorCode } from '../../../src-preload/contract/stream';
import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import type { LanguageModelPort, LlmMessage, LlmTool, Usage, Cost } from '../llm/types';
import type { ToolCallRecord } from './routeAction';

/** What a native tool call produced, in the provider's order. `content` goes back to the model. */
export interface ToolResult {
  toolCallId: string;
  toolName: string;
  /** The text the model reads (already truncated and annotated by the executor). */
  content: string;
  isError: boolean;
  /** Why an error happened, for the window's tool card; never sent to the model (it reads `content`). */
  errorCode?: ToolErrorCode;
  /** The structured output shown in the UI (tool-output-available). */
  output?: unknown;
  /** True when the user denied the call. */
  denied?: boolean;
}

/** A call the engine answered itself without running it, and the answer the model read. */
export interface UnrunCall {
  call: ToolCallRecord;
  answer: string;
}

/** Runs a native tool batch (permission, approval, audit happen behind this port). */
export interface ActionExecutorPort {
  executeBatch(calls: ToolCallRecord[], ctx: ActionContext): Promise<ToolResult[]>;
  /** Records calls whose arguments were refused before anything ran (the audit keeps every call). */
  recordUnrun?(calls: UnrunCall[], ctx: ActionContext): Promise<void>;
}

export interface CellOutcome {
  ok: boolean;
  /** What the model reads about the cell: stdout, stderr, error and traceback, truncated. */
  summary: string;
  /** Evidence id of the cell execution, when the evidence store records it. */
  evidenceId?: string;
  /** A structured answer submitted from the cell with host.submit_output, if any. */
  submitted?: unknown;
}

/** Runs a code cell in the session's kernel; emits its own `data-cell` chunks through ctx.emit. */
export interface KernelPort {
  executeCell(language: 'python' | 'r', code: string, ctx: ActionContext): Promise<CellOutcome>;
}

/** What a request is prepared from besides the history (the policy sizes the whole request). */
export interface ContextRequest {
  /** The run's system prompt for this turn, before any standing context is added. */
  system: string;
  /** The tools this request offers. */
  tools: readonly LlmTool[];
  ctx: ActionContext;
}

/** A prepared request: its messages, and its system text when the policy rebuilt it (standing context). */
export interface PreparedContext {
  messages: LlmMessage[];
  system?: string;
  /** What the policy's own model calls used (a compaction summary): added to the run's usage and cost. */
  usage?: Usage;
  cost?: Cost | null;
}

/**
 * Shapes the history into the request (archiving bulky results, compacting older turns,
 * adding standing context). Asked before every model request; may call the model itself
 * (a summary) and emit chunks through `request.ctx.emit`.
 */
export interface ContextPolicyPort {
  prepare(history: readonly LlmMessage[], request?: ContextRequest): LlmMessage[] | PreparedContext | Promise<LlmMessage[] | PreparedContext>;
}

/** Where chunks go: the ledger first, then the live topic. Dropped once the run is stale. */
export interface EventSinkPort {
  emit(chunk: StreamChunk): void;
}

/** Which evidence ids exist in the session (the evidence store arrives with the science issue). */
export interface EvidenceLookupPort {
  missing(ids: readonly string[]): string[] | Promise<string[]>;
  /** The artifact version ids among `ids` that do not exist in this session (absent: not checked). */
  missingArtifacts?(ids: readonly string[]): string[] | Promise<string[]>;
  /** The records of the ids that exist, in the order asked (a cited answer's sources; absent: none shown). */
  records?(ids: readonly string[]): EvidenceRecord[];
}

export interface ActionContext {
  sessionId: string;
  runId: string;
  /** The engine turn the action belongs to (1-based; absent outside the engine). */
  turn?: number;
  signal: AbortSignal;
  emit(chunk: StreamChunk): void;
  /**
   * Counts a model call made for this run outside its own requests (the biosecurity
   * screener, `host.llm` from a cell) in the run's usage and cost, as a summary call counts.
   */
  charge?(usage: Usage, cost: Cost | null): void;
}

/** A step the engine is about to take, shown to the action guard first (biosecurity screening, issue 27). */
export type GuardedStep =
  /** The run's user message, before the first request. */
  | { kind: 'message'; text: string }
  /** A native tool batch; `text` is the reply's prose. */
  | { kind: 'tools'; text: string; calls: readonly ToolCallRecord[] }
  | { kind: 'cell'; text: string; language: 'python' | 'r'; code: string };

/** proceed; refuse this step (the model reads why and the run goes on); or end the run with a refusal the user reads. */
export type GuardVerdict = { action: 'proceed' } | { action: 'refuse'; message: string } | { action: 'end'; message: string };

export interface ActionGuardPort {
  check(step: GuardedStep, history: readonly LlmMessage[], ctx: ActionContext): Promise<GuardVerdict>;
}

export interface EnginePorts {
  model: LanguageModelPort;
  executor: ActionExecutorPort;
  kernel: KernelPort;
  context: ContextPolicyPort;
  sink: EventSinkPort;
  evidence: EvidenceLookupPort;
  /** Checks each step before it runs (absent: every step proceeds). */
  guard?: ActionGuardPort;
}

export interface EngineOptions {
  sessionId: string;
  runId: string;
  /** The system prompt; a function is asked before each request (rebuilt every turn). */
  system: string | (() => string);
  /** The capabilities' tools; a function is asked before each request (tools found on demand join the run). */
  tools: readonly LlmTool[] | (() => readonly LlmTool[]);
  /** The conversation so far (earlier runs), then this run's user message last. */
  history: LlmMessage[];
  signal: AbortSignal;
  maxTurns?: number;
  /** How many invalid finalize_response attempts the model gets before the run fails. */
  maxFinalizeAttempts?: number;
  temperature?: number;
  /** Metadata of the assistant message (provider, model), sent on the `start` chunk. */
  startMetadata?: Record<string, unknown>;
  /**
   * Receives the run's emit as soon as it exists. The runner sends what a cell's host calls
   * stream (approvals, plan steps) through it, so the engine sees them as it sees its own
   * (a cell waiting for the user's approval is a step of what the run is doing).
   */
  bindEmit?(emit: (chunk: StreamChunk) => void): void;
  /**
   * Receives the run's meter: a model call made for the run elsewhere (`host.llm` from one of
   * its cells) is charged to the run's usage and cost through it.
   */
  bindCharge?(charge: (usage: Usage, cost: Cost | null) => void): void;
  /**
   * Called once as the run ends, before its closing chunks: what it started and still runs
   * (child agents) can close its parts in the message while the message is still open.
   */
  onEnding?(): void;
}

export type EngineStatus = 'completed' | 'failed' | 'cancelled';

export type EngineFailureCode =
  | 'provider_unavailable'
  | 'not_configured'
  | 'budget_exhausted'
  | 'invalid_output'
  | 'input_too_large'
  | 'cancelled'
  /** A safety layer (biosecurity screening) ended the run; the message says why. */
  | 'refused'
  | 'internal';

export interface EngineResult {
  status: EngineStatus;
  failureCode: EngineFailureCode | null;
  failureMessage: string | null;
  answer: CitedAnswer | null;
  turns: number;
  usage: Usage;
  cost: Cost | null;
  /** The history after the run (the input history plus everything the run added). */
  history: LlmMessage[];
}
