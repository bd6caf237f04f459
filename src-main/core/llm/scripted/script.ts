/**
 * The script a scripted model plays: one step per HTTP request, in order.
 * A step is a reply (rendered as OpenAI Chat Completions SSE chunks), an HTTP
 * error, a raw byte transcript (a recorded real stream, any wire), or a hang.
 */

export type ReplyItem =
  /** `delta.content`, split into `chunkSize`-character deltas. */
  | { text: string }
  /** `delta.reasoning_content` (DeepSeek, Ark, vLLM style). */
  | { reasoning: string }
  /** `<think>...</think>` written inside `delta.content` (R1 distills, Qwen3). */
  | { think: string }
  /** A tool call; object arguments are JSON-encoded, string arguments sent verbatim (may be invalid). */
  | { toolCall: { name: string; arguments: string | Record<string, unknown>; id?: string } }
  /** Pause the stream (milliseconds). */
  | { delayMs: number }
  /** One `data: <rawData>` event exactly as given, e.g. malformed JSON. */
  | { rawData: string };

export interface ScriptUsage {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens?: number;
  prompt_tokens_details?: { cached_tokens?: number };
  completion_tokens_details?: { reasoning_tokens?: number };
}

export interface ReplyStep {
  reply: ReplyItem[];
  /** Defaults to `tool_calls` when the reply has tool calls, else `stop`. */
  finishReason?: string;
  /** Defaults to a rough count (4 characters a token); null sends no usage chunk. */
  usage?: ScriptUsage | null;
  model?: string;
  /** Characters per content/argument delta (default 8). */
  chunkSize?: number;
  /** Pause between chunks (default 0). */
  chunkDelayMs?: number;
  /** Drop the connection after the reply items: no finish_reason, no usage, no [DONE]. */
  cut?: boolean;
  /** Extra response headers. */
  headers?: Record<string, string>;
}

export interface ErrorStep {
  error: {
    status: number;
    /** JSON body (default: an OpenAI-style `{error: {message, type, code}}`). */
    body?: unknown;
    headers?: Record<string, string>;
  };
}

export interface RawStep {
  /** Response body bytes, verbatim (a recorded transcript). */
  raw: string;
  status?: number;
  contentType?: string;
  /** Write the body in pieces of this many bytes (exercises parsers across network chunks). */
  chunkBytes?: number;
  chunkDelayMs?: number;
  /** Drop the connection after this many bytes. */
  cutAfterBytes?: number;
}

/** Accept the request and send nothing until the client goes away. */
export interface HangStep {
  hang: true;
}

export type StaticStep = ReplyStep | ErrorStep | RawStep | HangStep;

/**
 * A step decided when its request arrives, from the request body (e.g. to cite the
 * evidence ids an earlier tool result returned). It may not return another function.
 */
export type DynamicStep = (body: unknown) => StaticStep;

export type ScriptStep = StaticStep | DynamicStep;

/** An SSE body as a list of writes; numbers are pauses in milliseconds. */
export type Frame = string | number;

let idCounter = 0;
const nextId = (prefix: string) => `${prefix}_${Date.now().toString(36)}${(idCounter++).toString(36)}`;

function pieces(text: string, size: number): string[] {
  const out: string[] = [];
  if (!/[\uD800-\uDFFF]/.test(text)) {
    // No surrogate pair to keep whole: slice by code unit (a flood's render time is the bench's server time).
    for (let i = 0; i < text.length; i += size) out.push(text.slice(i, i + size));
    return out.length > 0 ? out : [''];
  }
  const chars = Array.from(text); // never split a surrogate pair
  for (let i = 0; i < chars.length; i += size) out.push(chars.slice(i, i + size).join(''));
  return out.length > 0 ? out : [''];
}

/** Renders a reply step as the frames of an OpenAI Chat Completions stream. */
export function renderReply(step: ReplyStep, promptChars: number): Frame[] {
  const id = nextId('chatcmpl');
  const model = step.model ?? 'scripted-model';
  const created = Math.floor(Date.now() / 1000);
  const size = Math.max(1, step.chunkSize ?? 8);
  const pause = step.chunkDelayMs ?? 0;
  const frames: Frame[] = [];
  const chunk = (choice: Record<string, unknown> | null, extra: Record<string, unknown> = {}) => {
    const body = { id, object: 'chat.completion.chunk', created, model, choices: choice ? [{ index: 0, ...choice }] : [], ...extra };
    if (pause > 0 && frames.length > 0) frames.push(pause);
    frames.push(`data: ${JSON.stringify(body)}\n\n`);
  };
  const delta = (d: Record<string, unknown>) => chunk({ delta: d, logprobs: null, finish_reason: null });
  /**
   * `delta({ [field]: p })` for each piece, the same bytes, the frame's JSON around the
   * piece stringified once (a flood of 50k deltas is the bench's server time, on its CPU).
   */
  const textDeltas = (field: 'content' | 'reasoning_content', ps: string[]) => {
    const [before, after] = JSON.stringify({ id, object: 'chat.completion.chunk', created, model, choices: [{ index: 0, delta: { [field]: '\u0000' }, logprobs: null, finish_reason: null }] }).split('"\\u0000"') as [string, string];
    for (const p of ps) {
      if (pause > 0 && frames.length > 0) frames.push(pause);
      frames.push(`data: ${before}${JSON.stringify(p)}${after}\n\n`);
    }
  };

  delta({ role: 'assistant', content: '' });
  let outChars = 0;
  let toolIndex = 0;
  for (const item of step.reply) {
    if ('text' in item) {
      textDeltas('content', pieces(item.text, size));
      outChars += item.text.length;
    } else if ('reasoning' in item) {
      textDeltas('reasoning_content', pieces(item.reasoning, size));
      outChars += item.reasoning.length;
    } else if ('think' in item) {
      for (const p of pieces(`<think>${item.think}</think>`, size)) delta({ content: p });
      outChars += item.think.length;
    } else if ('toolCall' in item) {
      const { name, arguments: args } = item.toolCall;
      const raw = typeof args === 'string' ? args : JSON.stringify(args);
      const index = toolIndex++;
      delta({
        tool_calls: [{ index, id: item.toolCall.id ?? nextId('call'), type: 'function', function: { name, arguments: '' } }],
      });
      if (raw) for (const p of pieces(raw, size)) delta({ tool_calls: [{ index, function: { arguments: p } }] });
      outChars += raw.length;
    } else if ('delayMs' in item) {
      frames.push(item.delayMs);
    } else {
      frames.push(`data: ${item.rawData}\n\n`);
    }
  }
  if (step.cut) return frames;
  const finish = step.finishReason ?? (toolIndex > 0 ? 'tool_calls' : 'stop');
  chunk({ delta: {}, logprobs: null, finish_reason: finish });
  if (step.usage !== null) {
    const usage = step.usage ?? {
      prompt_tokens: Math.ceil(promptChars / 4),
      completion_tokens: Math.ceil(outChars / 4),
    };
    chunk(null, { usage: { total_tokens: usage.prompt_tokens + usage.completion_tokens, ...usage } });
  }
  frames.push('data: [DONE]\n\n');
  return frames;
}

export function defaultErrorBody(status: number): unknown {
  const type = status === 401 ? 'invalid_request_error' : status === 429 ? 'rate_limit_error' : status >= 500 ? 'server_error' : 'invalid_request_error';
  const code = status === 401 ? 'invalid_api_key' : status === 429 ? 'rate_limit_exceeded' : null;
  const message =
    status === 401
      ? 'Incorrect API key provided (scripted model).'
      : status === 429
        ? 'Rate limit reached (scripted model).'
        : `Scripted error ${status}.`;
  return { error: { message, type, param: null, code } };
}
