/**
 * The UI message stream (Vercel AI SDK protocol v1, DESIGN.md "Streaming protocol",
 * seeds/chat-stream-format.txt) and the UIMessage view it folds into. Types only: the
 * renderer imports this file with `import type`, and no schema code ships with it.
 *
 * Every chunk below is what the AI SDK's own reader accepts, with two additions of ours:
 *  - `user-message`: the user's turn. The AI SDK stream carries only the assistant's
 *    message; the ledger records the whole conversation in one log, so the user's turn is
 *    a chunk too. It is never sent on the per-run SSE stream (see `isAssistantChunk` in fold.ts).
 *  - `patch` on a `data-*` chunk: RFC 6902 operations applied to the data of the part with
 *    the same type and id (the SNP2 rule of seeds/bohrium-mentor-snp2.txt). This is internal
 *    to the app (the ledger and our IPC): the AI SDK's reader refuses a data chunk without
 *    `data`, so whatever leaves the app as a UI message stream goes through
 *    src-main/core/engine/protocolStream.ts, which sends coalesced full snapshots instead.
 *
 * The data of each known `data-*` part is typed and validated by the map in dataParts.ts.
 */

export type ProviderMetadata = Record<string, Record<string, unknown>>;

export type FinishReason = 'stop' | 'length' | 'content-filter' | 'tool-calls' | 'error' | 'other';

/** One RFC 6902 operation (the subset fast-json-patch and the fold both apply). */
export type JsonPatchOperation =
  | { op: 'add' | 'replace' | 'test'; path: string; value: unknown }
  | { op: 'remove'; path: string }
  | { op: 'move' | 'copy'; from: string; path: string };

export interface StartChunk { type: 'start'; messageId?: string; messageMetadata?: unknown }
export interface FinishChunk { type: 'finish'; finishReason?: FinishReason; messageMetadata?: unknown }
export interface AbortChunk { type: 'abort'; reason?: string }
export interface MessageMetadataChunk { type: 'message-metadata'; messageMetadata: unknown }
export interface StartStepChunk { type: 'start-step' }
export interface FinishStepChunk { type: 'finish-step' }

export interface TextStartChunk { type: 'text-start'; id: string; providerMetadata?: ProviderMetadata }
export interface TextDeltaChunk { type: 'text-delta'; id: string; delta: string; providerMetadata?: ProviderMetadata }
export interface TextEndChunk { type: 'text-end'; id: string; providerMetadata?: ProviderMetadata }
export interface ReasoningStartChunk { type: 'reasoning-start'; id: string; providerMetadata?: ProviderMetadata }
export interface ReasoningDeltaChunk { type: 'reasoning-delta'; id: string; delta: string; providerMetadata?: ProviderMetadata }
export interface ReasoningEndChunk { type: 'reasoning-end'; id: string; providerMetadata?: ProviderMetadata }

interface ToolChunkCommon {
  toolCallId: string;
  providerExecuted?: boolean;
  providerMetadata?: ProviderMetadata;
  dynamic?: boolean;
}
export interface ToolInputStartChunk extends ToolChunkCommon { type: 'tool-input-start'; toolName: string; title?: string }
export interface ToolInputDeltaChunk { type: 'tool-input-delta'; toolCallId: string; inputTextDelta: string }
export interface ToolInputAvailableChunk extends ToolChunkCommon {
  type: 'tool-input-available';
  toolName: string;
  input: unknown;
  title?: string;
}
export interface ToolInputErrorChunk extends ToolChunkCommon {
  type: 'tool-input-error';
  toolName: string;
  input: unknown;
  errorText: string;
  title?: string;
}
export interface ToolApprovalRequestChunk { type: 'tool-approval-request'; toolCallId: string; approvalId: string }
export interface ToolOutputAvailableChunk extends ToolChunkCommon { type: 'tool-output-available'; output: unknown; preliminary?: boolean }
/**
 * Why a tool call failed, named beside main's English `errorText` (which is exactly what the
 * model read) so a window can say the case in its own language. Optional: streams recorded
 * before it was named carry the text only, and a reader shows the text for a code it does
 * not know (a newer writer's).
 */
export type ToolErrorCode =
  /** The model named a tool the run does not offer. */
  | 'unknown_tool'
  /** The arguments did not parse or did not fit the tool's schema (or the tool refused them). */
  | 'invalid_arguments'
  /** The arguments were over the size cap; nothing ran. */
  | 'arguments_too_large'
  /** The user or a stored rule refused the call (or its approval was not recorded). */
  | 'denied'
  /** A child agent called a tool its parent did not allow it. */
  | 'not_allowed'
  /** The safety screening refused the step; nothing ran. */
  | 'screening_refused'
  /** The egress guard refused the address (private network, scheme, too many redirects). */
  | 'network_refused'
  /** A path outside the session workspace (absolute, `..`, through a symlink). */
  | 'outside_workspace'
  /** A write to a protected name (.git, .env, shell rc files). */
  | 'protected_path'
  /** What the call names does not exist (a file, a record, an id). */
  | 'not_found'
  /** The call ran out of time. */
  | 'timed_out'
  /** The run was stopped while the call ran. */
  | 'cancelled'
  /** The app stopped during the call; its effect is unknown and it was not replayed. */
  | 'interrupted'
  /** finalize_response was not accepted (the model is told what to fix). */
  | 'answer_not_accepted'
  /** The tool ran and failed (the text says how). */
  | 'failed';

export interface ToolOutputErrorChunk extends ToolChunkCommon { type: 'tool-output-error'; errorText: string; errorCode?: ToolErrorCode }
export interface ToolOutputDeniedChunk { type: 'tool-output-denied'; toolCallId: string }

export interface SourceUrlChunk { type: 'source-url'; sourceId: string; url: string; title?: string; providerMetadata?: ProviderMetadata }
export interface SourceDocumentChunk {
  type: 'source-document';
  sourceId: string;
  mediaType: string;
  title: string;
  filename?: string;
  providerMetadata?: ProviderMetadata;
}
export interface FileChunk { type: 'file'; url: string; mediaType: string; providerMetadata?: ProviderMetadata }

/**
 * An app-specific part. With an `id`, a later chunk of the same type and id replaces its
 * data (or patches it); `transient` chunks are delivered live but never become a part.
 */
export interface DataChunk<T extends string = `data-${string}`> {
  type: T;
  id?: string;
  data?: unknown;
  patch?: JsonPatchOperation[];
  transient?: boolean;
}

/** The stream's own error report: the fold keeps it as a `data-error` part so history shows it. */
export interface ErrorChunk { type: 'error'; errorText: string; errorType?: string; errorCode?: string }

/** The user's turn (ours; see the file comment). */
export interface UserMessageChunk {
  type: 'user-message';
  messageId: string;
  text: string;
  files?: { url: string; mediaType: string; filename?: string }[];
  metadata?: unknown;
}

export type UIMessageChunk =
  | StartChunk | FinishChunk | AbortChunk | MessageMetadataChunk | StartStepChunk | FinishStepChunk
  | TextStartChunk | TextDeltaChunk | TextEndChunk
  | ReasoningStartChunk | ReasoningDeltaChunk | ReasoningEndChunk
  | ToolInputStartChunk | ToolInputDeltaChunk | ToolInputAvailableChunk | ToolInputErrorChunk
  | ToolApprovalRequestChunk | ToolOutputAvailableChunk | ToolOutputErrorChunk | ToolOutputDeniedChunk
  | SourceUrlChunk | SourceDocumentChunk | FileChunk | DataChunk | ErrorChunk;

/** What the ledger stores and the session stream carries. */
export type StreamChunk = UIMessageChunk | UserMessageChunk;

/** A chunk with its place in the session's log (the ledger's `stream_events` row). */
export interface StoredChunk {
  sessionId: string;
  seq: number;
  runId: string | null;
  chunk: StreamChunk;
  /** Unix milliseconds at which the ledger accepted it. */
  at: number;
}

// ---- the folded view -------------------------------------------------------------

export interface TextUIPart { type: 'text'; text: string; state?: 'streaming' | 'done'; providerMetadata?: ProviderMetadata }
export interface ReasoningUIPart { type: 'reasoning'; id?: string; text: string; state?: 'streaming' | 'done'; providerMetadata?: ProviderMetadata }
export interface StepStartUIPart { type: 'step-start' }
/** The fold keeps a source chunk as its part, so the two are one type. */
export type SourceUrlUIPart = SourceUrlChunk;
export type SourceDocumentUIPart = SourceDocumentChunk;
export interface FileUIPart { type: 'file'; url: string; mediaType: string; filename?: string; providerMetadata?: ProviderMetadata }
export interface DataUIPart { type: `data-${string}`; id?: string; data: unknown }

export type ToolState =
  | 'input-streaming'
  | 'input-available'
  | 'approval-requested'
  | 'output-available'
  | 'output-error'
  | 'output-denied';

interface ToolPartCommon {
  toolCallId: string;
  state: ToolState;
  input?: unknown;
  /** The argument text as streamed, kept when it does not parse (a parse error is never dropped). */
  rawInput?: string;
  output?: unknown;
  errorText?: string;
  /** The failure's case when main named it (see ToolErrorCode); a string, since a newer writer may name more. */
  errorCode?: string;
  title?: string;
  providerExecuted?: boolean;
  preliminary?: boolean;
  /** As the AI SDK keeps it: the approval asked for this call. */
  approval?: { id: string };
}
/** A tool call of a known tool: `type` is `tool-<toolName>`. */
export interface ToolUIPart extends ToolPartCommon { type: `tool-${string}` }
export interface DynamicToolUIPart extends ToolPartCommon { type: 'dynamic-tool'; toolName: string }

export type UIPart =
  | TextUIPart | ReasoningUIPart | StepStartUIPart | SourceUrlUIPart | SourceDocumentUIPart | FileUIPart
  | DataUIPart | ToolUIPart | DynamicToolUIPart;

export interface UIMessage {
  id: string;
  role: 'user' | 'assistant';
  metadata?: unknown;
  parts: UIPart[];
}
