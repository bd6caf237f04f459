/**
 * One streaming call to a provider, retries and timeouts included, with no configuration
 * lookup: everything it needs is in its arguments, so the model thread (thread/entry.ts)
 * runs it as the main thread does.
 */
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { ProviderSpec } from '../config/providerCatalog';
import { scrubSecrets } from '../security/secrets';
import { classifyError, isAbortError, retryAfterOf } from './errors';
import { StreamNormalizer } from './normalize';
import { toCallOptions } from './prompt';
import { retryDelay, sleep, type RetryPolicy } from './retry';
import { connectTimeoutMessage, idleTimeoutMessage, type ProviderTimeouts } from './timeouts';
import type { LlmErrorInfo, LlmRequest, Part } from './types';
import { WaitDeadline } from './waitDeadline';
import type { Wire } from './wires';

/** Where a stream goes: the provider, its endpoint, key and default model (a resolved provider is one). */
export interface StreamTarget {
  spec: Pick<ProviderSpec, 'id' | 'envPrefix' | 'baseUrl'>;
  baseUrl: string;
  apiKey: string | null;
  model: string;
}

/** Provider errors are recorded and shown: the key (or anything key-shaped) they echo is removed first. */
function scrubInfo(info: LlmErrorInfo, apiKey: string | null): LlmErrorInfo {
  return { ...info, message: scrubSecrets(info.message, [apiKey]), code: info.code && scrubSecrets(info.code, [apiKey]) };
}

function baseUrlHint(resolved: StreamTarget, modelId: string): string {
  return `Check OPENAI4S_${resolved.spec.envPrefix}_BASE_URL (it includes the version path, e.g. ${resolved.spec.baseUrl}) and the model id "${modelId}".`;
}

/** A 404 is nearly always a base URL without its version path, or a mistyped model. */
function withHint(info: LlmErrorInfo, resolved: StreamTarget, modelId: string): LlmErrorInfo {
  return info.status === 404 ? { ...info, message: `${info.message} (${baseUrlHint(resolved, modelId)})` } : info;
}

/**
 * The provider's stream as parts: one HTTP request per attempt through `wire`, normalized,
 * retried while nothing was streamed, timed out only while it waits on the provider. Runs
 * where it is called: on the main thread for a model with its own fetch, otherwise on the
 * model thread (modelThread.ts), which calls this same function.
 */
export async function* streamFromProvider(
  wire: Wire,
  resolved: StreamTarget,
  request: LlmRequest,
  policy: RetryPolicy,
  random: () => number,
  timeouts: ProviderTimeouts,
): AsyncGenerator<Part> {
  const provider = resolved.spec.id;
  const modelId = request.model ?? resolved.model;
  // Every error and retry part is scrubbed where it is made (the normalizer's, and the two below).
  const scrub = (info: LlmErrorInfo) => scrubInfo(info, resolved.apiKey);
  const ctx = { providerId: provider, model: modelId, baseUrl: resolved.baseUrl, scrub };
  // Our own controller, so leaving the loop early also closes the HTTP stream.
  const controller = new AbortController();
  const onAbort = () => controller.abort(request.signal?.reason);
  if (request.signal?.aborted) controller.abort(request.signal.reason);
  request.signal?.addEventListener('abort', onAbort, { once: true });
  let lm: LanguageModelV3;
  try {
    lm = wire.model(modelId);
  } catch (error) {
    yield { type: 'error', error: scrub(classifyError(error, provider)) };
    return;
  }
  const providerOptions = wire.providerOptions(request, modelId);

  try {
    for (let attempt = 1; ; attempt++) {
      const norm = new StreamNormalizer(ctx);
      // Set when a failure may be retried: nothing reached the caller yet.
      let failure: { info: LlmErrorInfo; cause: unknown } | null = null;
      let reader: ReadableStreamDefaultReader<LanguageModelV3StreamPart> | null = null;
      // Each attempt has its own signal, so an idle timeout ends this attempt only.
      const attemptController = new AbortController();
      let timedOut: 'connect' | 'idle' | null = null;
      // The deadline counts only while we wait on the provider, never while the caller holds a part.
      const deadline = new WaitDeadline<'connect' | 'idle'>((phase) => {
        timedOut = phase;
        attemptController.abort();
      });
      const waitFor = <T>(promise: PromiseLike<T>, phase: 'connect' | 'idle'): Promise<T> =>
        deadline.wait(promise, phase, phase === 'connect' ? timeouts.connectMs : timeouts.idleMs);
      const options = toCallOptions(request, providerOptions, AbortSignal.any([controller.signal, attemptController.signal]));
      try {
        const result = await waitFor(lm.doStream(options), 'connect');
        reader = result.stream.getReader();
        const contentType = result.response?.headers?.['content-type'];
        if (contentType && !/event-stream/i.test(contentType)) {
          // A proxy page or a wrong path answered 200: without this check the empty
          // "stream" would be reported as truncated, hiding the real mistake.
          yield* norm.fail({
            errorType: 'validation',
            code: 'not_event_stream',
            message: `${resolved.baseUrl} answered with ${contentType}, not an event stream. ${baseUrlHint(resolved, modelId)}`,
            status: null,
            provider,
            retryable: false,
          });
          return;
        }
        for (;;) {
          const { done, value } = await waitFor(reader.read(), 'idle');
          if (done) {
            yield* norm.end();
            return;
          }
          for (const part of norm.push(value)) {
            if (part.type === 'error' && part.error.retryable && !norm.emittedOutput) {
              failure = { info: part.error, cause: value.type === 'error' ? value.error : null };
              break;
            }
            yield part;
          }
          if (failure) break;
          if (norm.finished) return;
        }
      } catch (error) {
        if (controller.signal.aborted || (!timedOut && isAbortError(error))) {
          yield* norm.abort();
          return;
        }
        const info: LlmErrorInfo = timedOut
          ? {
              errorType: 'timeout',
              code: timedOut === 'connect' ? 'connect_timeout' : 'idle_timeout',
              message:
                timedOut === 'connect'
                  ? connectTimeoutMessage(provider, resolved.baseUrl, timeouts.connectMs)
                  : idleTimeoutMessage(provider, timeouts.idleMs),
              status: null,
              provider,
              retryable: true,
            }
          : withHint(classifyError(error, provider), resolved, modelId);
        if (!info.retryable || norm.emittedOutput) {
          yield* norm.fail(info);
          return;
        }
        failure = { info, cause: error };
      } finally {
        deadline.dispose();
        // Releasing the stream: it may already be closed or errored, and the outcome was decided above.
        reader?.cancel().catch(() => undefined);
      }
      if (!failure) {
        yield* norm.end();
        return;
      }
      const delay = retryDelay(policy, attempt, retryAfterOf(failure.cause), random);
      if (delay === null) {
        yield* norm.fail(failure.info);
        return;
      }
      yield { type: 'retry', attempt, delayMs: delay, error: scrub(failure.info) };
      try {
        await sleep(delay, controller.signal);
      } catch {
        // The sleep rejects only when the caller aborted during the wait.
        yield* norm.abort();
        return;
      }
    }
  } finally {
    request.signal?.removeEventListener('abort', onAbort);
    // Whatever ended the loop (finish, error, the caller breaking out), the connection goes.
    controller.abort();
  }
}
