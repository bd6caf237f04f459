/**
 * The one small interface the engine talks to: `stream(request) -> AsyncIterable<Part>`.
 * Every provider wire (OpenAI-compatible, Anthropic Messages, Gemini) is normalized
 * into these parts, so the engine never sees a provider's shape.
 */

/** The fetch a provider wire uses (wrapped for timeouts and the [DONE] cut). */
export type FetchFunction = typeof globalThis.fetch;

/** A JSON Schema object describing a tool's input (passed to the provider as is). */
export type JsonSchema = Record<string, unknown>;

export interface LlmTool {
  name: string;
  description?: string;
  inputSchema: JsonSchema;
}

/** A tool call as the model produced it: the raw text always kept, the parse result beside it. */
export interface LlmToolCall {
  id: string;
  name: string;
  rawArguments: string;
}

export type LlmMessage =
  | { role: 'user'; content: string }
  | {
      role: 'assistant';
      content: string;
      /** Sent back only when given; some providers require it (DeepSeek tool turns), some reject it. */
      reasoning?: string;
      toolCalls?: LlmToolCall[];
    }
  | { role: 'tool'; toolCallId: string; toolName: string; content: string; isError?: boolean };

export interface LlmRequest {
  messages: LlmMessage[];
  system?: string;
  tools?: LlmTool[];
  /** Overrides the model the provider was created with. */
  model?: string;
  temperature?: number;
  maxOutputTokens?: number;
  /** Ask for visible reasoning where the provider needs opting in (Anthropic thinking, Gemini thoughts budget). */
  reasoningBudgetTokens?: number;
  signal?: AbortSignal;
}

/** The error categories of seeds/chat-stream-format.txt (`errorType`). */
export type LlmErrorType =
  | 'llm'
  | 'network'
  | 'timeout'
  | 'authentication'
  | 'rate_limit'
  | 'validation'
  | 'internal'
  | 'unknown';

/** A classified failure: our category, plus the provider's own code and message, verbatim. */
export interface LlmErrorInfo {
  errorType: LlmErrorType;
  /** The provider's code (`invalid_api_key`, `rate_limit_error`, `RESOURCE_EXHAUSTED`, ...) or ours (`stream_truncated`, ...). */
  code: string | null;
  message: string;
  /** HTTP status when there was a response. */
  status: number | null;
  provider: string;
  retryable: boolean;
}

export type FinishReason =
  | 'stop'
  | 'length'
  | 'tool-calls'
  | 'content-filter'
  | 'error'
  | 'other'
  /** The caller aborted; the HTTP stream was closed. */
  | 'aborted';

/** Token counts of one call; null means the provider did not report it. */
export interface Usage {
  /** All input tokens, cached ones included. */
  promptTokens: number | null;
  /** All output tokens, reasoning included. */
  completionTokens: number | null;
  reasoningTokens: number | null;
  /** Input tokens served from the provider's prompt cache. */
  cachedTokens: number | null;
}

export type Currency = 'CNY' | 'USD';

export interface Cost {
  currency: Currency;
  amount: number;
  /** The price-table entry used. */
  priceId: string;
}

export type Part =
  | { type: 'text-delta'; text: string }
  | { type: 'reasoning-delta'; text: string }
  /**
   * `providerExecuted`: a tool the provider ran itself (Anthropic server tools); the
   * engine must not execute it. Absent for ordinary calls.
   */
  | { type: 'tool-call-start'; id: string; name: string; providerExecuted?: true }
  | { type: 'tool-call-delta'; id: string; delta: string }
  | {
      type: 'tool-call-end';
      id: string;
      name: string;
      /** The complete argument text as the model sent it. */
      rawArguments: string;
      /** Parsed JSON, or undefined when parsing failed. */
      arguments: unknown;
      /** Why `rawArguments` did not parse as a JSON object, or null. */
      parseError: string | null;
      /** False when the stream ended before the provider closed this call. */
      complete: boolean;
      providerExecuted?: true;
    }
  /** Emitted before a retry, so a UI can say "retrying in N s"; nothing was streamed yet. */
  | { type: 'retry'; attempt: number; delayMs: number; error: LlmErrorInfo }
  | {
      type: 'finish';
      reason: FinishReason;
      /** The provider's own finish reason (`tool_calls`, `end_turn`, `STOP`, ...). */
      rawReason: string | null;
      usage: Usage;
      cost: Cost | null;
      model: string;
    }
  | { type: 'error'; error: LlmErrorInfo };

export interface LanguageModelPort {
  readonly providerId: string;
  readonly model: string;
  readonly baseUrl: string;
  /** Never throws for provider failures: they arrive as an `error` part, then the iterable ends. */
  stream(request: LlmRequest): AsyncIterable<Part>;
}
