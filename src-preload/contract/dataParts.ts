import { z } from 'zod';
import { citedAnswerSchema, type CitedAnswer } from './answer';
import type { ApprovalEventData, HostCallEventData } from './approvals';
import type { ArtifactVersion } from './artifacts';
import { compactionDataSchema } from './compaction';
import type { EvidenceRecord } from './evidence';
import type { KernelCellError, KernelDisplay, KernelExitCause, KernelSandboxState, KernelUsage } from './kernel';
import type { JsonPatchOperation } from './stream';

/**
 * The one map of the app's `data-*` parts (DESIGN.md "Streaming protocol"): part name ->
 * zod schema of its `data`. Producers build their chunks with `dataChunk` (typed by this
 * map), the renderer's switch over data parts is exhaustive over `DataPartName`, and the
 * tests validate every data part of a real run against these schemas. Each schema is
 * annotated with the contract type it describes, so the two cannot drift apart.
 *
 * The renderer imports only the types of this file (it ships no zod).
 */

const language = z.enum(['python', 'r']);

const cellOutputPieceSchema = z.object({ stream: z.enum(['stdout', 'stderr']), text: z.string() }).strict();

const kernelDisplaySchema: z.ZodType<KernelDisplay> = z
  .object({ data: z.record(z.string(), z.string()), path: z.string().optional(), bytes: z.number().optional(), svgPath: z.string().optional(), pdfPath: z.string().optional() })
  .strict();

const kernelCellErrorSchema: z.ZodType<KernelCellError> = z
  .object({ ename: z.string(), evalue: z.string(), traceback: z.string(), line: z.number().int().nullable() })
  .strict();

const kernelUsageSchema: z.ZodType<KernelUsage> = z
  .object({ wallMs: z.number(), cpuMs: z.number(), peakRssKb: z.number().nullable() })
  .strict();

const sandboxSchema: z.ZodType<KernelSandboxState> = z.discriminatedUnion('state', [
  z.object({ state: z.literal('sandboxed'), backend: z.enum(['bwrap', 'sandbox-exec']) }).strict(),
  z
    .object({
      state: z.literal('degraded'),
      reason: z.string(),
      gap: z.enum(['bwrap_missing', 'bwrap_blocked', 'sandbox_exec_missing', 'no_backend']).optional(),
      detail: z.string().optional(),
    })
    .strict(),
  z.object({ state: z.literal('off') }).strict(),
]);

const kernelExitCauseSchema: z.ZodType<KernelExitCause> = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('signal'), signal: z.string() }).strict(),
  z.object({ kind: z.literal('exit'), code: z.number().int().nullable() }).strict(),
  z.object({ kind: z.literal('spawn_failed'), file: z.string(), message: z.string() }).strict(),
  z.object({ kind: z.literal('interrupt_unheeded'), graceMs: z.number() }).strict(),
  z.object({ kind: z.literal('out_of_memory'), limitMiB: z.number() }).strict(),
  z.object({ kind: z.literal('frame_too_large'), limitMiB: z.number() }).strict(),
]);

/**
 * `data-cell`: a code cell. First the running cell (language, code, `output: []`, then
 * grown by patches on our IPC), then replaced by its result.
 */
export const cellDataSchema = z
  .object({
    language,
    code: z.string(),
    status: z.enum(['running', 'ok', 'error', 'interrupted', 'died']),
    /** The streamed pieces in the order both streams wrote them. */
    output: z.array(cellOutputPieceSchema).optional(),
    generation: z.string().optional(),
    cellNumber: z.number().int().optional(),
    stdout: z.string().optional(),
    stderr: z.string().optional(),
    displays: z.array(kernelDisplaySchema).optional(),
    error: kernelCellErrorSchema.nullable().optional(),
    usage: kernelUsageSchema.nullable().optional(),
    truncated: z.boolean().optional(),
    sandbox: sandboxSchema.optional(),
    died: z.object({ reason: z.string(), lost: z.string(), cause: kernelExitCauseSchema.optional() }).strict().nullable().optional(),
    /** The running cell's wall-clock limit (the view offers to extend it). */
    timeLimitMs: z.number().int().positive().optional(),
    /** When the running cell was sent to the kernel (ISO): its view counts the time from it. */
    startedAt: z.string().optional(),
    /** Set when the cell hit that limit: the limit in force and how to raise it. */
    timeLimit: z.object({ limitMs: z.number(), message: z.string() }).strict().optional(),
  })
  .strict();

/** `data-answer`: the cited answer as stored (an uncited plain-text answer may be longer than a cited summary). */
const answerDataSchema: z.ZodType<CitedAnswer> = citedAnswerSchema.extend({
  summary: z.string().min(1),
  cited: z.boolean(),
});

const evidenceDataSchema: z.ZodType<EvidenceRecord> = z
  .object({
    id: z.string(),
    sessionId: z.string(),
    kind: z.enum(['retrieval', 'page', 'cell', 'artifact_version']),
    title: z.string(),
    snippet: z.string(),
    envelope: z.record(z.string(), z.unknown()),
    createdAt: z.string(),
  })
  .strict();

const environmentSchema = z.discriminatedUnion('status', [
  z
    .object({
      status: z.literal('recorded'),
      language,
      interpreter: z.string(),
      interpreterVersion: z.string(),
      packages: z.array(z.object({ name: z.string(), version: z.string().nullable() }).strict()),
      environment: z.string().optional(),
    })
    .strict(),
  z.object({ status: z.literal('missing'), language: language.nullable(), reason: z.string() }).strict(),
]);

const producerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('cell'), cellId: z.string(), generation: z.string(), language }).strict(),
  z.object({ kind: z.literal('tool'), tool: z.string(), runId: z.string().nullable() }).strict(),
  z.object({ kind: z.literal('user') }).strict(),
]);

const artifactDataSchema: z.ZodType<ArtifactVersion> = z
  .object({
    id: z.string(),
    artifactId: z.string(),
    sessionId: z.string(),
    number: z.number().int().min(1),
    path: z.string(),
    sha256: z.string(),
    size: z.number().int().min(0),
    mime: z.string(),
    createdAt: z.string(),
    provenance: z
      .object({ producer: producerSchema, environment: environmentSchema, inputEvidence: z.array(z.string()), created_at: z.string() })
      .strict(),
    evidenceId: z.string(),
    cellOutcome: z.object({ status: z.enum(['ok', 'error', 'interrupted', 'died']), error: z.string().optional() }).strict().optional(),
  })
  .strict();

const origin = z.enum(['tool', 'cell']);

const approvalDataSchema: z.ZodType<ApprovalEventData> = z
  .object({
    requestId: z.string(),
    state: z.enum(['requested', 'allowed_once', 'allowed_session', 'allowed_always', 'denied', 'expired']),
    origin,
    tool: z.string(),
    target: z.string(),
    reason: z.string(),
    toolCallId: z.string().optional(),
    cellId: z.string().optional(),
    note: z.string().optional(),
    answeredBy: z.enum(['user', 'headless']).optional(),
  })
  .strict();

const hostCallDataSchema: z.ZodType<HostCallEventData> = z
  .object({
    origin,
    method: z.string(),
    tool: z.string().nullable(),
    target: z.string().nullable(),
    status: z.enum(['ok', 'error', 'denied', 'refused']),
    decidedBy: z.string(),
    cellId: z.string().optional(),
    toolCallId: z.string().optional(),
    durationMs: z.number(),
    count: z.number().int().min(1).optional(),
    approvalWaitMs: z.number().optional(),
  })
  .strict();

/** `data-run-status` (transient): a run waiting in the session's queue, or the model call being retried. */
const runStatusDataSchema = z.union([
  // waitingFor/waitingForKind: who holds the session's kernel while the run waits for it (issue 25).
  z.object({ runId: z.string(), status: z.literal('queued'), position: z.number().int().min(1), waitingFor: z.string().optional(), waitingForKind: z.enum(['agent', 'user', 'environment']).optional() }).strict(),
  z.object({ status: z.literal('retrying'), attempt: z.number().int().min(1), delayMs: z.number().min(0), reason: z.string() }).strict(),
]);

/** `data-error`: the stream's own error report as the fold keeps it (see fold.ts). */
const errorDataSchema = z
  .object({ errorText: z.string(), errorType: z.string().optional(), errorCode: z.string().optional() })
  .strict();

/**
 * `data-thinking-step`: one step of what the agent plans or is doing now, in the shape of the
 * stream seed (chat-stream-format.txt: `{id, title, status, items}`), re-sent under the same
 * part id whenever it changes (the fold replaces a part by id).
 *
 * Status vocabulary: the seed's `pending | in_progress | completed`, plus `failed`. We keep the
 * seed's words rather than the pending/running/done so that a client written against
 * the seed's stream (any AI SDK `useChat` client reading `data-thinking-step`) shows our steps
 * unchanged; `failed` is the one addition (such a client shows it as not completed).
 *
 * Extensions, all optional so a seed-shaped step stays valid: `parentId` (a tree: a sub-step
 * names its parent step's id), `startedAt` / `finishedAt` (ISO 8601; the elapsed time of the
 * running step is now - startedAt), `kind` (`plan`: a step of the agent's own plan from
 * write_todos; `activity`: what the engine or a capability is doing, default), and
 * `toolCallId` / `cellId` linking the step to what it describes, and `label`: an activity
 * step's words as a message key and its values, so the workbench says it in the UI's
 * language (`title` stays the English words for any other client).
 */
export const thinkingStepStatuses = ['pending', 'in_progress', 'completed', 'failed'] as const;
/** The activity steps the engine words (engine/activitySteps.ts); the renderer has a message for each. */
export const activityLabelKeys = [
  'search',
  'searchAll',
  'searchFor',
  'searchAllFor',
  'webSearch',
  'webSearchFor',
  'readPage',
  'readUrl',
  'remember',
  'rememberText',
  'forget',
  'forgetId',
  'runTool',
  'runToolOn',
  'readFile',
  'listDir',
  'writeFile',
  'editFile',
  'readPdf',
  'searchFiles',
  'loadSkill',
  'saveArtifact',
  'delegateOne',
  'delegateMany',
  'collectChildren',
  'approval',
  'cell',
  'cellNumbered',
  'answer',
] as const;
export type ActivityLabelKey = (typeof activityLabelKeys)[number];
export const activityLabelSchema = z
  .object({
    key: z.enum(activityLabelKeys),
    params: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
  })
  .strict();
export type ActivityLabel = z.output<typeof activityLabelSchema>;
export const thinkingStepDataSchema = z
  .object({
    id: z.string().min(1),
    title: z.string(),
    status: z.enum(thinkingStepStatuses),
    items: z.array(z.string()).optional(),
    parentId: z.string().min(1).optional(),
    startedAt: z.string().optional(),
    finishedAt: z.string().optional(),
    kind: z.enum(['plan', 'activity']).optional(),
    toolCallId: z.string().optional(),
    cellId: z.string().optional(),
    label: activityLabelSchema.optional(),
  })
  .strict();

/** What a child agent (delegation) is doing: waiting for a pool slot, running, or how it ended. */
export const childStatuses = ['queued', 'running', 'completed', 'failed', 'stopped', 'budget_exhausted'] as const;

/**
 * `data-child`: one child agent of the run (issue 20), re-sent under its run id whenever it
 * changes. Every descendant of a user's run is a part of that run's message; `parentRunId`
 * nests it under the run that started it (the user's run or another child).
 */
export const childDataSchema = z
  .object({
    runId: z.string(),
    parentRunId: z.string(),
    depth: z.number().int().min(1).max(4),
    task: z.string(),
    status: z.enum(childStatuses),
    startedAt: z.string().optional(),
    finishedAt: z.string().optional(),
    turns: z.number().int().min(0),
    /** The child's answer summary, once it completed. */
    summary: z.string().optional(),
    /** Why it did not complete (failed, stopped, budget exhausted). */
    failure: z.string().optional(),
    /** The evidence ids its answer cites (session evidence: the parent may cite them). */
    evidence: z.array(z.string()),
  })
  .strict();

/**
 * `data-child-event` (transient): one chunk of a child agent's own stream, stored in the
 * session's stream under the child's run id. Transient, so the fold keeps it out of the
 * user's messages (a child's stream would otherwise open messages of its own).
 */
const childEventDataSchema = z.object({ runId: z.string(), chunk: z.record(z.string(), z.unknown()) }).strict();

/**
 * `data-compute-job`: a compute job (issue 23) as a step of the run that is live when it
 * changes (submitted, running, finished and harvested), re-sent under its job id.
 */
export const computeJobDataSchema = z
  .object({
    jobId: z.string(),
    target: z.string(),
    state: z.enum(['pending', 'running', 'completed', 'failed', 'cancelled', 'timeout', 'out_of_memory', 'node_fail']),
    exitCode: z.number().int().nullable(),
    elapsedSeconds: z.number().nullable(),
    reason: z.string().nullable(),
    harvested: z.boolean(),
    /** The declared outputs that came back, and those that were not written. */
    outputs: z.array(z.string()),
    missing: z.array(z.string()),
  })
  .strict();

export const dataPartSchemas = {
  cell: cellDataSchema,
  answer: answerDataSchema,
  evidence: evidenceDataSchema,
  artifact: artifactDataSchema,
  approval: approvalDataSchema,
  'host-call': hostCallDataSchema,
  'run-status': runStatusDataSchema,
  error: errorDataSchema,
  child: childDataSchema,
  'child-event': childEventDataSchema,
  'thinking-step': thinkingStepDataSchema,
  /** Issue 19: the divider "earlier turns summarised", with the handoff (contract/compaction.ts). */
  compaction: compactionDataSchema,
  'compute-job': computeJobDataSchema,
} as const;

export type DataPartName = keyof typeof dataPartSchemas;
export type DataPartData = { [K in DataPartName]: z.output<(typeof dataPartSchemas)[K]> };
export type CellData = DataPartData['cell'];
export type CellOutputPiece = z.output<typeof cellOutputPieceSchema>;
export type RunStatusData = DataPartData['run-status'];
export type ErrorData = DataPartData['error'];
export type ChildData = DataPartData['child'];
export type ChildStatus = ChildData['status'];
export type ThinkingStepData = DataPartData['thinking-step'];
export type ThinkingStepStatus = ThinkingStepData['status'];

/** A folded part of one known name: `{type: 'data-<name>', id, data}`. */
export interface DataPartOf<K extends DataPartName> {
  type: `data-${K}`;
  id?: string;
  data: DataPartData[K];
}
/** Any known data part, discriminated by `type` (switch over it exhaustively). */
export type KnownDataUIPart = { [K in DataPartName]: DataPartOf<K> }[DataPartName];

/** A chunk carrying a full snapshot of a known part. */
export interface DataPartChunk<K extends DataPartName> extends DataPartOf<K> {
  transient?: true;
}

/** The name of a `data-*` type, when it is one of the map's. */
export function dataPartName(type: string): DataPartName | null {
  if (!type.startsWith('data-')) return null;
  const name = type.slice(5);
  return Object.prototype.hasOwnProperty.call(dataPartSchemas, name) ? (name as DataPartName) : null;
}

/** A `data-<name>` snapshot chunk; `id` names the part that a later chunk with the same id replaces. */
export function dataChunk<K extends DataPartName>(name: K, id: string | undefined, data: DataPartData[K]): DataPartChunk<K> {
  return id === undefined ? { type: `data-${name}`, data } : { type: `data-${name}`, id, data };
}

/** A `data-<name>` chunk delivered live but never kept as a part (status notices). */
export function transientDataChunk<K extends DataPartName>(name: K, data: DataPartData[K]): DataPartChunk<K> {
  return { type: `data-${name}`, data, transient: true };
}

/**
 * An update of the part `id` by RFC 6902 operations: our IPC's internal optimisation,
 * never sent as is on a UI message stream (see src-main/core/engine/protocolStream.ts).
 */
export function dataPatchChunk<K extends DataPartName>(
  name: K,
  id: string,
  patch: JsonPatchOperation[],
): { type: `data-${K}`; id: string; patch: JsonPatchOperation[] } {
  return { type: `data-${name}`, id, patch };
}
