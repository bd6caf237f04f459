import { transientDataChunk } from '../../../src-preload/contract/dataParts';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { LanguageModelPort, LlmErrorInfo, LlmRequest, Usage, Cost } from '../llm/types';
import type { ToolCallRecord } from './routeAction';
import { argumentRefusal, MAX_TOOL_ARGUMENT_BYTES, REFUSED_ARGUMENT_PREVIEW_CHARS, refusedPreview } from './toolArgumentCap';
import { errorMessage } from '../shared/errorMessage';

/** One model reply, gathered while its parts were streamed out as UI chunks. */
export interface ModelReply {
  text: string;
  reasoning: string;
  toolCalls: ToolCallRecord[];
  usage: Usage | null;
  cost: Cost | null;
  finishReason: string | null;
  error: LlmErrorInfo | null;
  aborted: boolean;
}

/**
 * Streams one model call and turns its parts into UI message stream chunks as they
 * arrive: text and reasoning blocks get start/delta/end, tool calls input-start/delta
 * and then input-available (parsed) or input-error (raw text kept with the parse error).
 * A call whose arguments grow past MAX_TOOL_ARGUMENT_BYTES is refused as they stream: its
 * deltas stop, it ends in input-error, and the model is told to use a file instead.
 */
export async function streamReply(
  model: LanguageModelPort,
  request: LlmRequest,
  emit: (chunk: StreamChunk) => void,
  idPrefix: string,
): Promise<ModelReply> {
  const reply: ModelReply = {
    text: '',
    reasoning: '',
    toolCalls: [],
    usage: null,
    cost: null,
    finishReason: null,
    error: null,
    aborted: false,
  };
  let block = 0;
  let open: { kind: 'text' | 'reasoning'; id: string } | null = null;
  const close = () => {
    if (!open) return;
    emit({ type: open.kind === 'text' ? 'text-end' : 'reasoning-end', id: open.id });
    open = null;
  };
  const ensure = (kind: 'text' | 'reasoning') => {
    if (open?.kind === kind) return open.id;
    close();
    open = { kind, id: `${idPrefix}-${kind === 'text' ? 't' : 'r'}${block++}` };
    emit({ type: kind === 'text' ? 'text-start' : 'reasoning-start', id: open.id });
    return open.id;
  };
  const started = new Set<string>();
  /** Argument bytes seen per call, and the first characters (a refused call keeps only those). */
  const argumentBytes = new Map<string, number>();
  const heads = new Map<string, string>();
  const refused = new Map<string, number>();
  const names = new Map<string, string>();

  try {
    for await (const part of model.stream(request)) {
      switch (part.type) {
        case 'text-delta':
          if (!part.text) break;
          reply.text += part.text;
          emit({ type: 'text-delta', id: ensure('text'), delta: part.text });
          break;
        case 'reasoning-delta':
          if (!part.text) break;
          reply.reasoning += part.text;
          emit({ type: 'reasoning-delta', id: ensure('reasoning'), delta: part.text });
          break;
        case 'tool-call-start':
          close();
          started.add(part.id);
          names.set(part.id, part.name);
          emit({ type: 'tool-input-start', toolCallId: part.id, toolName: part.name });
          break;
        case 'tool-call-delta': {
          if (!part.delta || refused.has(part.id)) break;
          const bytes = (argumentBytes.get(part.id) ?? 0) + Buffer.byteLength(part.delta);
          argumentBytes.set(part.id, bytes);
          const head = heads.get(part.id) ?? '';
          if (head.length < REFUSED_ARGUMENT_PREVIEW_CHARS) heads.set(part.id, head + part.delta.slice(0, REFUSED_ARGUMENT_PREVIEW_CHARS - head.length));
          if (bytes > MAX_TOOL_ARGUMENT_BYTES) {
            // Refused at once: nothing more of it is streamed, stored or parsed.
            refused.set(part.id, bytes);
            const name = names.get(part.id) ?? 'tool';
            emit({ type: 'tool-input-error', toolCallId: part.id, toolName: name, input: refusedPreview(heads.get(part.id)!, bytes), errorText: argumentRefusal(name) });
            break;
          }
          emit({ type: 'tool-input-delta', toolCallId: part.id, inputTextDelta: part.delta });
          break;
        }
        case 'tool-call-end': {
          close();
          if (!started.has(part.id)) emit({ type: 'tool-input-start', toolCallId: part.id, toolName: part.name });
          const refusedBytes = refused.get(part.id) ?? (Buffer.byteLength(part.rawArguments) > MAX_TOOL_ARGUMENT_BYTES ? Buffer.byteLength(part.rawArguments) : null);
          if (refusedBytes !== null) {
            const rawArguments = refusedPreview(part.rawArguments, refusedBytes);
            reply.toolCalls.push({ id: part.id, name: part.name, rawArguments, arguments: undefined, parseError: argumentRefusal(part.name) });
            // A call sent whole (no deltas) is refused here; a streamed one already said so.
            if (!refused.has(part.id)) emit({ type: 'tool-input-error', toolCallId: part.id, toolName: part.name, input: rawArguments, errorText: argumentRefusal(part.name) });
            break;
          }
          const parseError = part.complete
            ? part.parseError
            : `the stream ended before the arguments were complete${part.parseError ? ` (${part.parseError})` : ''}`;
          reply.toolCalls.push({
            id: part.id,
            name: part.name,
            rawArguments: part.rawArguments,
            arguments: parseError ? undefined : part.arguments,
            parseError,
          });
          if (parseError) {
            emit({
              type: 'tool-input-error',
              toolCallId: part.id,
              toolName: part.name,
              input: part.rawArguments,
              errorText: `Arguments are not valid JSON: ${parseError}`,
            });
          } else {
            emit({ type: 'tool-input-available', toolCallId: part.id, toolName: part.name, input: part.arguments });
          }
          break;
        }
        case 'retry':
          emit(transientDataChunk('run-status', { status: 'retrying', attempt: part.attempt, delayMs: part.delayMs, reason: part.error.message }));
          break;
        case 'finish':
          reply.usage = part.usage;
          reply.cost = part.cost;
          reply.finishReason = part.reason;
          if (part.reason === 'aborted') reply.aborted = true;
          break;
        case 'error':
          reply.error = part.error;
          break;
      }
    }
  } catch (error) {
    // The port promises not to throw, but a bug must not leave the run hanging.
    if (request.signal?.aborted) reply.aborted = true;
    else
      reply.error = {
        errorType: 'internal',
        code: 'stream_threw',
        message: errorMessage(error),
        status: null,
        provider: model.providerId,
        retryable: false,
      };
  }
  close();
  if (request.signal?.aborted) reply.aborted = true;
  return reply;
}
