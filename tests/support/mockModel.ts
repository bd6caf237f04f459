import type { LanguageModelPort, LlmRequest, Part } from '../../src-main/core/llm/types';

/** One scripted reply: parts to yield, or a function of the request (to look at history). */
export type ScriptedReply = Part[] | ((request: LlmRequest) => Part[]);

/**
 * An in-memory model for engine unit tests: plays one scripted reply per call and
 * records every request. It honours the abort signal between parts like a real stream.
 */
export class RecordingMockModel implements LanguageModelPort {
  readonly providerId = 'mock';
  readonly model = 'mock-1';
  readonly baseUrl = 'memory://mock';
  readonly requests: LlmRequest[] = [];
  /** Called between parts; tests use it to abort mid-stream. */
  onPart?: (part: Part, call: number) => void;

  constructor(private readonly script: ScriptedReply[]) {}

  async *stream(request: LlmRequest): AsyncIterable<Part> {
    const call = this.requests.length;
    this.requests.push(structuredClone({ ...request, signal: undefined }));
    const entry = this.script[call];
    if (!entry) throw new Error(`mock model: no scripted reply for call ${call + 1}`);
    const parts = typeof entry === 'function' ? entry(request) : entry;
    for (const part of parts) {
      if (request.signal?.aborted) {
        yield finish('aborted');
        return;
      }
      await Promise.resolve();
      yield part;
      this.onPart?.(part, call);
    }
  }
}

export const usage = { promptTokens: 10, completionTokens: 5, reasoningTokens: null, cachedTokens: null };

export function finish(reason: Extract<Part, { type: 'finish' }>['reason'] = 'stop'): Part {
  return { type: 'finish', reason, rawReason: null, usage, cost: null, model: 'mock-1' };
}

export const text = (t: string): Part[] => [{ type: 'text-delta', text: t }, finish()];

export function toolCall(id: string, name: string, args: unknown): Part[] {
  const raw = typeof args === 'string' ? args : JSON.stringify(args);
  let parsed: unknown;
  let parseError: string | null = null;
  try {
    parsed = JSON.parse(raw);
  } catch (e) {
    parseError = (e as Error).message;
  }
  return [
    { type: 'tool-call-start', id, name },
    { type: 'tool-call-delta', id, delta: raw },
    { type: 'tool-call-end', id, name, rawArguments: raw, arguments: parsed, parseError, complete: true },
  ];
}

export const validAnswer = {
  summary: '胰岛素是一种肽类激素。',
  claims: [{ statement: 'Insulin is a peptide hormone.', basis: 'inferred', evidence: [], uncertainty: 'low' }],
  limitations: ['No database was queried.'],
  next_steps: [],
  suggested_questions: ['What is the structure of insulin?'],
  artifacts: [],
  completion_bullets: ['Answered the question'],
};
