/**
 * Turns the AI SDK's provider-neutral stream parts (LanguageModelV3StreamPart)
 * into our `Part`s, for every wire alike:
 * - `<think>` blocks inside text become reasoning;
 * - every tool call becomes start, deltas, end, where the end carries the complete
 *   raw argument text, the parsed value and the parse error side by side;
 * - a stream that ends without the provider's finish, or is cut inside a tool call,
 *   still reports each started call (complete: false) and then an error;
 * - the stream ends with exactly one terminal part: `finish` or `error`.
 * Synchronous and stateful: `push` each SDK part, then `end`, `abort` or `fail`.
 */
import { InvalidResponseDataError, type LanguageModelV3StreamPart, type LanguageModelV3Usage } from '@ai-sdk/provider';
import { classifyError } from './errors';
import { costOf } from './pricing';
import { ThinkSplitter } from './thinkSplitter';
import type { FinishReason, LlmErrorInfo, Part, Usage } from './types';
import { errorMessage } from '../shared/errorMessage';

interface OpenCall {
  id: string;
  name: string;
  raw: string;
  providerExecuted: boolean;
}

export interface NormalizeContext {
  providerId: string;
  model: string;
  baseUrl: string;
  /** Applied to every error this normalizer reports (model.ts removes the key a provider echoes). */
  scrub?: (error: LlmErrorInfo) => LlmErrorInfo;
}

const EMPTY_USAGE: Usage = { promptTokens: null, completionTokens: null, reasoningTokens: null, cachedTokens: null };

export function toUsage(u: LanguageModelV3Usage | undefined): Usage {
  if (!u) return { ...EMPTY_USAGE };
  return {
    promptTokens: u.inputTokens.total ?? null,
    completionTokens: u.outputTokens.total ?? null,
    reasoningTokens: u.outputTokens.reasoning ?? null,
    cachedTokens: u.inputTokens.cacheRead ?? null,
  };
}

/** Parses tool arguments; they must be a JSON object. Empty text means "no arguments". */
export function parseToolArguments(raw: string): { value: unknown; error: string | null } {
  if (raw.trim() === '') return { value: {}, error: null };
  try {
    const value = JSON.parse(raw) as unknown;
    if (value === null || typeof value !== 'object' || Array.isArray(value)) {
      return { value: undefined, error: `Tool arguments must be a JSON object, got ${Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'null' : typeof value}.` };
    }
    return { value, error: null };
  } catch (error) {
    return { value: undefined, error: `Tool arguments are not valid JSON: ${errorMessage(error)}` };
  }
}

/** Parts that neither carry output nor end text, so a held `<think>` prefix may continue after them. */
const QUIET = new Set(['text-delta', 'text-start', 'stream-start', 'response-metadata', 'raw']);

/**
 * The openai-compatible package's error when the body ended with no `finish_reason`. The
 * SDK gives it no code (an InvalidResponseDataError with no data), so after the class its
 * message is the only thing that tells it from other invalid data.
 */
function isTruncation(error: unknown): boolean {
  return InvalidResponseDataError.isInstance(error) && /ended without a finish reason/i.test(error.message);
}

export class StreamNormalizer {
  private readonly think = new ThinkSplitter();
  private readonly open = new Map<string, OpenCall>();
  /** Calls the SDK closed but whose fate (complete, or flushed by a truncation) the next part decides. */
  private pendingEnds: Part[] = [];
  private done = false;
  private model: string;
  /** True once text, reasoning or a tool call was emitted: retrying would duplicate output. */
  emittedOutput = false;

  constructor(private readonly ctx: NormalizeContext) {
    this.model = ctx.model;
  }

  get finished(): boolean {
    return this.done;
  }

  push(part: LanguageModelV3StreamPart): Part[] {
    if (this.done) return [];
    const out: Part[] = [];
    if (part.type !== 'tool-call' && part.type !== 'error') out.push(...this.releaseEnds(true));
    // Text held back as a possible `<think>` prefix goes out before anything else does,
    // so the order of text and other parts is the order the provider sent them.
    if (!QUIET.has(part.type)) out.push(...this.flushText());
    switch (part.type) {
      case 'text-delta':
        for (const piece of this.think.push(part.delta)) out.push(this.piece(piece.kind, piece.text));
        break;
      case 'text-end':
        for (const piece of this.think.flush()) out.push(this.piece(piece.kind, piece.text));
        break;
      case 'reasoning-delta':
        if (part.delta) out.push(this.piece('reasoning', part.delta));
        break;
      case 'tool-input-start':
        out.push(...this.startCall(part.id, part.toolName, part.providerExecuted === true));
        break;
      case 'tool-input-delta': {
        const call = this.open.get(part.id);
        if (call && part.delta) {
          call.raw += part.delta;
          out.push({ type: 'tool-call-delta', id: call.id, delta: part.delta });
        }
        break;
      }
      case 'tool-call': {
        let call = this.open.get(part.toolCallId);
        if (!call) {
          // Some wires announce a call only when it is whole: give it the same shape.
          out.push(...this.startCall(part.toolCallId, part.toolName, part.providerExecuted === true));
          call = this.open.get(part.toolCallId)!;
        }
        // The concatenated deltas must equal the final text. When the SDK completes the text
        // itself (Anthropic sends a no-argument call as `input: {}` and no delta), the
        // missing tail is emitted as one more delta, so every wire looks the same.
        if (part.input !== call.raw && part.input.startsWith(call.raw)) {
          out.push({ type: 'tool-call-delta', id: call.id, delta: part.input.slice(call.raw.length) });
        }
        this.open.delete(call.id);
        this.pendingEnds.push(this.endPart(call, part.input, true));
        break;
      }
      case 'response-metadata':
        if (part.modelId) this.model = part.modelId;
        break;
      case 'finish':
        out.push(...this.flushText(), ...this.closeOpenCalls());
        out.push(this.finishPart(part.finishReason.unified, part.finishReason.raw ?? null, toUsage(part.usage)));
        break;
      case 'error':
        out.push(...this.releaseEnds(!isTruncation(part.error)));
        out.push(...this.fail(this.classifyStreamError(part.error)));
        break;
      default:
        // stream-start, raw, text-start, reasoning-start/end, tool-input-end, sources, files and
        // provider-executed tool results carry nothing the engine consumes.
        break;
    }
    return out;
  }

  /** The SDK stream ended. Without a finish part the reply is cut short: say so. */
  end(): Part[] {
    if (this.done) return [];
    const out = [...this.releaseEnds(false), ...this.flushText(), ...this.closeOpenCalls()];
    out.push(
      ...this.fail({
        errorType: 'network',
        code: 'stream_truncated',
        message: `The ${this.ctx.providerId} stream ended before the model finished its reply.`,
        status: null,
        provider: this.ctx.providerId,
        retryable: false,
      }),
    );
    return out;
  }

  /** The caller aborted: report what was open, then finish as `aborted`. */
  abort(): Part[] {
    if (this.done) return [];
    const out = [...this.releaseEnds(false), ...this.flushText(), ...this.closeOpenCalls()];
    out.push(this.finishPart('aborted', null, { ...EMPTY_USAGE }));
    return out;
  }

  fail(error: LlmErrorInfo): Part[] {
    if (this.done) return [];
    const out = [...this.releaseEnds(false), ...this.flushText(), ...this.closeOpenCalls()];
    this.done = true;
    out.push({ type: 'error', error: this.ctx.scrub ? this.ctx.scrub(error) : error });
    return out;
  }

  private classifyStreamError(error: unknown): LlmErrorInfo {
    if (isTruncation(error)) {
      return {
        errorType: 'network',
        code: 'stream_truncated',
        message: `The ${this.ctx.providerId} stream ended before the model finished its reply (no finish reason).`,
        status: null,
        provider: this.ctx.providerId,
        retryable: false,
      };
    }
    return classifyError(error, this.ctx.providerId);
  }

  private piece(kind: 'text' | 'reasoning', text: string): Part {
    this.emittedOutput = true;
    return kind === 'text' ? { type: 'text-delta', text } : { type: 'reasoning-delta', text };
  }

  private flushText(): Part[] {
    return this.think.flush().map((p) => this.piece(p.kind, p.text));
  }

  private startCall(id: string, name: string, providerExecuted: boolean): Part[] {
    this.emittedOutput = true;
    this.open.set(id, { id, name, raw: '', providerExecuted });
    return [{ type: 'tool-call-start', id, name, ...(providerExecuted ? { providerExecuted: true as const } : {}) }];
  }

  private endPart(call: OpenCall, raw: string, complete: boolean): Part {
    const parsed = parseToolArguments(raw);
    const parseError = complete ? parsed.error : `The stream ended before this tool call was complete.${parsed.error ? ` ${parsed.error}` : ''}`;
    return {
      type: 'tool-call-end',
      id: call.id,
      name: call.name,
      rawArguments: raw,
      arguments: complete ? parsed.value : undefined,
      parseError,
      complete,
      ...(call.providerExecuted ? { providerExecuted: true as const } : {}),
    };
  }

  private releaseEnds(complete: boolean): Part[] {
    const ends = this.pendingEnds;
    this.pendingEnds = [];
    if (complete) return ends;
    return ends.map((p) => {
      if (p.type !== 'tool-call-end') return p;
      const call: OpenCall = { id: p.id, name: p.name, raw: p.rawArguments, providerExecuted: p.providerExecuted === true };
      return this.endPart(call, p.rawArguments, false);
    });
  }

  /** Calls the provider never closed: reported with the text received so far. */
  private closeOpenCalls(): Part[] {
    const out: Part[] = [];
    for (const call of this.open.values()) out.push(this.endPart(call, call.raw, false));
    this.open.clear();
    return out;
  }

  private finishPart(reason: FinishReason, rawReason: string | null, usage: Usage): Part {
    this.done = true;
    return {
      type: 'finish',
      reason,
      rawReason,
      usage,
      cost: reason === 'aborted' ? null : costOf(this.ctx.providerId, this.model, this.ctx.baseUrl, usage),
      model: this.model,
    };
  }
}
