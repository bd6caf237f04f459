import type { StreamChunk } from '../../../src-preload/contract/stream';
import { dataChunk } from '../../../src-preload/contract/dataParts';
import type { Cost, LlmErrorInfo, LlmMessage, Usage } from '../llm/types';
import { checkCitedAnswer, uncitedAnswer } from './finalize';
import type { ActionContext, EngineFailureCode, EngineOptions, EnginePorts, EngineResult, GuardedStep, GuardVerdict, ToolResult, UnrunCall } from './ports';
import { withFinalizeTool } from './finalizeTool';
import { FINALIZE_TOOL, routeAction, type ToolCallRecord } from './routeAction';
import { streamReply, type ModelReply } from './streamReply';
import { isArgumentRefusal } from './toolArgumentCap';
import { addCost, addUsage, emptyUsage } from './usage';
import { ActivitySteps } from './activitySteps';
import { errorMessage } from '../shared/errorMessage';

/** How a provider error ends the run: no key or a bad one, a request too large, or the provider failing. */
export function failureCodeOf(error: { errorType: string; code: string | null; message: string }): EngineFailureCode {
  if (error.errorType === 'authentication') return 'not_configured';
  const text = `${error.code ?? ''} ${error.message}`;
  if (/context[_ ]length|context window|maximum context|too many tokens|prompt is too long|input is too long|request too large/i.test(text)) return 'input_too_large';
  return 'provider_unavailable';
}

/** A provider failure as the run's metadata keeps it: the category and codes, without the message (that is the failure message). */
export function providerErrorMeta(error: Pick<LlmErrorInfo, 'errorType' | 'code' | 'status' | 'provider'>): { errorType: string; code: string | null; status: number | null; provider: string } {
  return { errorType: error.errorType, code: error.code, status: error.status, provider: error.provider };
}

export const NUDGE =
  'Your reply had no action. Use a tool, run a ```python or ```r cell, or call finalize_response with your cited answer.';
export const DEFAULT_MAX_TURNS = 24;
export const DEFAULT_MAX_FINALIZE_ATTEMPTS = 3;

/**
 * The agent's turn loop, shared by the UI session runner and the CLI. Per turn:
 * prepare context, stream the model reply (as UI chunks), route the action, execute,
 * append history; stop on completion, cancellation, error or max turns.
 */
export async function runEngine(ports: EnginePorts, options: EngineOptions): Promise<EngineResult> {
  const maxTurns = options.maxTurns ?? DEFAULT_MAX_TURNS;
  const maxFinalize = options.maxFinalizeAttempts ?? DEFAULT_MAX_FINALIZE_ATTEMPTS;
  const history: LlmMessage[] = [...options.history];
  const { signal } = options;
  let stale = false;
  // After cancellation nothing but the closing chunk may reach the sink (late events are dropped).
  const send = (chunk: StreamChunk) => {
    if (!stale) ports.sink.emit(chunk);
  };
  // What the run is doing now (data-thinking-step, kind activity): it sees every chunk the run emits.
  const activity = new ActivitySteps(send, options.runId);
  const emit = (chunk: StreamChunk) => {
    send(chunk);
    activity.observe(chunk);
  };
  options.bindEmit?.(emit);
  let usage = emptyUsage();
  let cost: EngineResult['cost'] = null;
  let calls = 0;
  let ended = false;
  // Every model call of the run counts: its own requests, a compaction's summary, the
  // screener's calls (the guard charges them) and host.llm from its cells (the runner's meter).
  const charge = (spent: Usage, price: Cost | null) => {
    if (ended) return;
    usage = addUsage(usage, spent);
    cost = addCost(cost, price, calls === 0);
    calls++;
  };
  options.bindCharge?.(charge);
  const ctx: ActionContext = { sessionId: options.sessionId, runId: options.runId, turn: 0, signal, emit, charge };
  let turns = 0;
  let nudged = false;
  let finalizeFailures = 0;

  const end = (
    status: EngineResult['status'],
    failureCode: EngineFailureCode | null,
    failureMessage: string | null,
    answer: EngineResult['answer'] = null,
    /** The provider's classified error, when it ended the run: the UI explains it (what to do), the text is the details. */
    providerError: LlmErrorInfo | null = null,
  ): EngineResult => {
    try {
      options.onEnding?.();
    } catch {
      // What listens for the end must not change how the run ends.
    }
    activity.closeAll(status === 'completed');
    // The usage below is the run's record: a call that finishes later is not the run's any more.
    ended = true;
    // The outcome travels with the message, so history shows it exactly as live did.
    emit({
      type: 'message-metadata',
      messageMetadata: { run: { status, failureCode, failureMessage, turns, usage, cost, ...(providerError ? { providerError: providerErrorMeta(providerError) } : {}) } },
    });
    if (status === 'cancelled') {
      emit({ type: 'abort', reason: failureMessage ?? 'cancelled' });
    } else {
      if (status === 'failed') emit({ type: 'error', errorText: failureMessage ?? 'failed', errorCode: failureCode ?? 'internal', ...(providerError ? { errorType: providerError.errorType } : {}) });
      emit({ type: 'finish', finishReason: status === 'completed' ? 'stop' : 'error' });
    }
    stale = true;
    return { status, failureCode, failureMessage, answer, turns, usage, cost, history };
  };

  // The action guard (biosecurity screening) sees each step before it runs.
  const guarded = (step: GuardedStep): Promise<GuardVerdict> => (ports.guard ? ports.guard.check(step, history, ctx) : Promise.resolve({ action: 'proceed' }));
  // A run the guard ends: the refusal is the assistant's text, so the user reads it in the conversation.
  const refuseRun = (message: string): EngineResult => {
    const id = `${options.runId}-refusal`;
    emit({ type: 'text-start', id });
    emit({ type: 'text-delta', id, delta: message });
    emit({ type: 'text-end', id });
    return end('failed', 'refused', message);
  };

  emit({
    type: 'start',
    messageId: options.runId,
    ...(options.startMetadata ? { messageMetadata: options.startMetadata } : {}),
  });
  // The engine owns the answer protocol: finalize_response is offered whatever the capabilities are.
  const offeredTools = () => withFinalizeTool(typeof options.tools === 'function' ? options.tools() : options.tools);
  try {
    const lastUser = [...history].reverse().find((m) => m.role === 'user');
    const opening = await guarded({ kind: 'message', text: lastUser?.content ?? '' });
    if (signal.aborted) return end('cancelled', 'cancelled', 'Stopped by the user.');
    if (opening.action !== 'proceed') return refuseRun(opening.message);
    while (turns < maxTurns) {
      if (signal.aborted) return end('cancelled', 'cancelled', 'Stopped by the user.');
      turns++;
      ctx.turn = turns;
      emit({ type: 'start-step' });
      // The system prompt and standing context are rebuilt every turn; the policy may compact
      // (a summary call) and may offer a tool (recall) for what it archived, so tools are read after it.
      const system = typeof options.system === 'function' ? options.system() : options.system;
      const prepared = await ports.context.prepare(history, { system, tools: offeredTools(), ctx });
      // A summary call is a model call of the run: its tokens and cost count.
      if (!Array.isArray(prepared) && prepared.usage) charge(prepared.usage, prepared.cost ?? null);
      if (signal.aborted) return end('cancelled', 'cancelled', 'Stopped by the user.');
      const request = Array.isArray(prepared) ? { messages: prepared, system } : { messages: prepared.messages, system: prepared.system ?? system };
      const reply: ModelReply = await streamReply(
        ports.model,
        {
          messages: request.messages,
          system: request.system,
          tools: offeredTools(),
          signal,
          ...(options.temperature !== undefined ? { temperature: options.temperature } : {}),
        },
        emit,
        `${options.runId}-s${turns}`,
      );
      if (reply.usage) charge(reply.usage, reply.cost);
      if (reply.aborted || signal.aborted) return end('cancelled', 'cancelled', 'Stopped by the user.');
      if (reply.error) {
        emit({ type: 'finish-step' });
        const code = failureCodeOf(reply.error);
        return end('failed', code, `${reply.error.provider}: ${reply.error.message}`, null, reply.error);
      }

      const action = routeAction(reply.text, reply.toolCalls);
      const assistant: LlmMessage = {
        role: 'assistant',
        content: reply.text,
        ...(reply.reasoning ? { reasoning: reply.reasoning } : {}),
        ...(reply.toolCalls.length
          ? { toolCalls: reply.toolCalls.map((c) => ({ id: c.id, name: c.name, rawArguments: c.rawArguments })) }
          : {}),
      };
      history.push(assistant);

      if (action.kind === 'finalize') {
        const outcome = await finalize(action.call);
        emit({ type: 'finish-step' });
        if (outcome.done) return end('completed', null, null, outcome.answer);
        if (++finalizeFailures >= maxFinalize) {
          return end('failed', 'invalid_output', `finalize_response was invalid ${finalizeFailures} times: ${outcome.errors.join('; ')}`);
        }
        continue;
      }

      if (action.kind === 'tool-batch') {
        nudged = false;
        const verdict = await guarded({ kind: 'tools', text: reply.text, calls: action.calls });
        if (signal.aborted) return end('cancelled', 'cancelled', 'Stopped by the user.');
        if (verdict.action === 'end') {
          emit({ type: 'finish-step' });
          return refuseRun(verdict.message);
        }
        const results = verdict.action === 'refuse' ? await refuseBatch(action.calls, verdict.message) : await executeBatch(action.calls);
        emit({ type: 'finish-step' });
        if (signal.aborted) return end('cancelled', 'cancelled', 'Stopped by the user.');
        for (const r of results) {
          history.push({ role: 'tool', toolCallId: r.toolCallId, toolName: r.toolName, content: r.content, isError: r.isError });
        }
        continue;
      }

      if (action.kind === 'cell') {
        nudged = false;
        const verdict = await guarded({ kind: 'cell', text: reply.text, language: action.fence.language, code: action.fence.code });
        if (signal.aborted) return end('cancelled', 'cancelled', 'Stopped by the user.');
        if (verdict.action === 'end') {
          emit({ type: 'finish-step' });
          return refuseRun(verdict.message);
        }
        if (verdict.action === 'refuse') {
          history.push({ role: 'user', content: `The cell was not run: ${verdict.message}` });
          emit({ type: 'finish-step' });
          continue;
        }
        activity.cellStarted(action.fence.language);
        const outcome = await ports.kernel.executeCell(action.fence.language, action.fence.code, ctx);
        activity.cellEnded(outcome.ok);
        if (signal.aborted) {
          emit({ type: 'finish-step' });
          return end('cancelled', 'cancelled', 'Stopped by the user.');
        }
        if (outcome.submitted !== undefined) {
          const check = await checkCitedAnswer(outcome.submitted, ports.evidence);
          if (check.ok) {
            emit(dataChunk('answer', options.runId, check.answer));
            emit({ type: 'finish-step' });
            return end('completed', null, null, check.answer);
          }
          history.push({ role: 'user', content: `Cell result:\n${outcome.summary}\n\nhost.submit_output was invalid:\n- ${check.errors.join('\n- ')}` });
        } else {
          history.push({ role: 'user', content: `Cell result${outcome.ok ? '' : ' (error)'}:\n${outcome.summary}` });
        }
        emit({ type: 'finish-step' });
        continue;
      }

      // No action: nudge once; a second text-only reply is the (uncited) answer.
      emit({ type: 'finish-step' });
      if (!nudged) {
        nudged = true;
        history.push({ role: 'user', content: NUDGE });
        continue;
      }
      if (!reply.text.trim()) return end('failed', 'invalid_output', 'The model returned an empty reply twice.');
      const answer = uncitedAnswer(reply.text);
      emit(dataChunk('answer', options.runId, answer));
      return end('completed', null, null, answer);
    }
    return end('failed', 'budget_exhausted', `Stopped after ${maxTurns} turns without a final answer (max turns).`);
  } catch (error) {
    if (signal.aborted) return end('cancelled', 'cancelled', 'Stopped by the user.');
    return end('failed', 'internal', `Engine error: ${errorMessage(error)}`);
  }

  async function finalize(call: ToolCallRecord): Promise<{ done: true; answer: NonNullable<EngineResult['answer']> } | { done: false; errors: string[] }> {
    const errors = call.parseError
      ? [isArgumentRefusal(call.parseError) ? call.parseError : `arguments are not valid JSON: ${call.parseError}`]
      : null;
    const check = errors ? ({ ok: false, errors } as const) : await checkCitedAnswer(call.arguments, ports.evidence);
    activity.answerEnded(check.ok);
    if (check.ok) {
      emit({ type: 'tool-output-available', toolCallId: call.id, output: { accepted: true } });
      emit(dataChunk('answer', options.runId, check.answer));
      return { done: true, answer: check.answer };
    }
    const text = `finalize_response was not accepted. Fix these and call it again:\n- ${check.errors.join('\n- ')}`;
    emit({ type: 'tool-output-error', toolCallId: call.id, errorText: text, errorCode: 'answer_not_accepted' });
    history.push({ role: 'tool', toolCallId: call.id, toolName: call.name, content: text, isError: true });
    return { done: false, errors: check.errors };
  }

  /** A batch the guard refused: nothing runs; each call is answered with the reason and audited as unrun. */
  async function refuseBatch(batch: ToolCallRecord[], message: string): Promise<ToolResult[]> {
    const content = `Not executed: ${message}`;
    await ports.executor.recordUnrun?.(batch.map((call) => ({ call, answer: content })), ctx);
    return batch.map((call) => {
      emit({ type: 'tool-output-error', toolCallId: call.id, errorText: content, errorCode: 'screening_refused' });
      return { toolCallId: call.id, toolName: call.name, isError: true, errorCode: 'screening_refused', content };
    });
  }

  /** Answers parse errors and a finalize_response mixed into a batch itself; the rest goes to the executor. */
  async function executeBatch(batch: ToolCallRecord[]): Promise<ToolResult[]> {
    const local = new Map<string, ToolResult>();
    const runnable: ToolCallRecord[] = [];
    const unrun: UnrunCall[] = [];
    for (const call of batch) {
      if (call.parseError) {
        const tooLarge = isArgumentRefusal(call.parseError);
        const content = tooLarge
          ? `Not executed: ${call.parseError}.`
          : `Not executed: the arguments are not valid JSON (${call.parseError}). Raw arguments: ${call.rawArguments.slice(0, 500)}`;
        local.set(call.id, { toolCallId: call.id, toolName: call.name, isError: true, errorCode: tooLarge ? 'arguments_too_large' : 'invalid_arguments', content });
        unrun.push({ call, answer: content });
      } else if (call.name === FINALIZE_TOOL) {
        local.set(call.id, {
          toolCallId: call.id,
          toolName: call.name,
          isError: true,
          errorCode: 'answer_not_accepted',
          content: 'finalize_response must be the only call in its reply. The other calls ran; call finalize_response alone when you are done.',
        });
      } else {
        runnable.push(call);
      }
    }
    // Not run, but audited like every call the model made.
    if (unrun.length) await ports.executor.recordUnrun?.(unrun, ctx);
    activity.toolsStarted(runnable);
    const executed = runnable.length ? await ports.executor.executeBatch(runnable, ctx) : [];
    const byId = new Map(executed.map((r) => [r.toolCallId, r]));
    // Results go back in the provider's original order, whatever order they finished in.
    return batch.map((call) => {
      const result =
        local.get(call.id) ??
        byId.get(call.id) ?? {
          toolCallId: call.id,
          toolName: call.name,
          isError: true,
          errorCode: 'failed',
          content: 'The executor returned no result for this call.',
        };
      if (result.denied) emit({ type: 'tool-output-denied', toolCallId: call.id });
      else if (result.isError) emit({ type: 'tool-output-error', toolCallId: call.id, errorText: result.content, ...(result.errorCode ? { errorCode: result.errorCode } : {}) });
      else emit({ type: 'tool-output-available', toolCallId: call.id, output: result.output ?? result.content });
      activity.toolEnded(result);
      return result;
    });
  }
}
