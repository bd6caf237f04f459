import type { StreamChunk } from '../../../src-preload/contract/stream';
import { providerErrorMeta } from '../engine/loop';
import type { EngineResult } from '../engine/ports';
import { emptyUsage } from '../engine/usage';
import type { Ledger } from '../ledger/ledger';
import { LlmError } from '../llm/errors';
import { errorMessage } from '../shared/errorMessage';

/** What a run's `start` needs of its submission. */
interface StartOf {
  provider?: string;
  /** The earlier run a retry or an edit replaces. */
  supersedes?: string;
}

export type RunFinish = Parameters<Ledger['runs']['finish']>[1];

/** A run's `start` metadata: what it runs on and, for a retry or an edit, the run it supersedes. */
export function runStartMetadata(input: StartOf, extra: Record<string, unknown>): Record<string, unknown> {
  return { ...extra, ...(input.supersedes ? { supersedes: input.supersedes } : {}) };
}

/**
 * The stream of a run whose model could not be made (no key, an unknown provider): it
 * starts and ends failed, with the outcome in the message's metadata as the engine's own
 * end has it, so the renderer (which reads run status from the stream) shows it failed
 * and explains which provider lacked what.
 */
export function notConfiguredRun(runId: string, input: StartOf, error: unknown): { chunks: StreamChunk[]; finish: RunFinish } {
  const message = errorMessage(error);
  const info = error instanceof LlmError ? error.info : null;
  const provider = info?.provider ?? input.provider;
  return {
    chunks: [
      { type: 'start', messageId: runId, messageMetadata: runStartMetadata(input, provider ? { provider } : {}) },
      {
        type: 'message-metadata',
        messageMetadata: { run: { status: 'failed', failureCode: 'not_configured', failureMessage: message, turns: 0, usage: emptyUsage(), cost: null, ...(info ? { providerError: providerErrorMeta(info) } : {}) } },
      },
      { type: 'error', errorText: message, errorCode: 'not_configured', ...(info ? { errorType: info.errorType } : {}) },
      { type: 'finish', finishReason: 'error' },
    ],
    finish: { status: 'failed', failureCode: 'not_configured', failureMessage: message },
  };
}

/**
 * The stream of a queued run that never started (stopped, its session deleted, the app
 * closing): its message enters the stream, closed as cancelled the way the engine closes
 * a stopped run, so the history shows it instead of silently losing it.
 */
export function cancelledRun(runId: string, input: StartOf | undefined, reason: string): { chunks: StreamChunk[]; finish: RunFinish } {
  return {
    chunks: [
      { type: 'start', messageId: runId, ...(input?.supersedes ? { messageMetadata: runStartMetadata(input, {}) } : {}) },
      { type: 'message-metadata', messageMetadata: { run: { status: 'cancelled', failureCode: 'cancelled', failureMessage: reason, turns: 0, usage: emptyUsage(), cost: null } } },
      { type: 'abort', reason },
    ],
    finish: { status: 'cancelled', failureCode: 'cancelled', failureMessage: reason },
  };
}

/** The run record's ending from the engine's result: status, failure, token usage and a USD cost. */
export function engineFinish(result: EngineResult): RunFinish {
  const u = result.usage;
  const usage = {
    ...(u.promptTokens !== null ? { inputTokens: u.promptTokens } : {}),
    ...(u.completionTokens !== null ? { outputTokens: u.completionTokens } : {}),
    ...(u.reasoningTokens !== null ? { reasoningTokens: u.reasoningTokens } : {}),
    ...(u.cachedTokens !== null ? { cachedInputTokens: u.cachedTokens } : {}),
  };
  return {
    status: result.status,
    ...(result.failureCode ? { failureCode: result.failureCode } : {}),
    ...(result.failureMessage ? { failureMessage: result.failureMessage } : {}),
    usage,
    ...(result.cost?.currency === 'USD' ? { costUsd: result.cost.amount } : {}),
  };
}
