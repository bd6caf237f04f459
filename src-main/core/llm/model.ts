/**
 * `createModel(providerId, {env})` -> a LanguageModelPort: resolves key, base URL and
 * model (config/providers.ts), refuses at once without a key, and streams normalized
 * parts with bounded retries before the first output and immediate abort.
 */
import type { LanguageModelV3, LanguageModelV3StreamPart } from '@ai-sdk/provider';
import type { ConfigEnv } from '../config/env';
import { PROVIDERS, findProvider } from '../config/providerCatalog';
import { defaultProviderId, missingKeyMessage, resolveProvider, type ResolvedProvider, type SettingsEndpointLookup, type SettingsKeyLookup } from '../config/providers';
import { registerSecrets, scrubSecrets } from '../security/secrets';
import { LlmError, classifyError, isAbortError, retryAfterOf } from './errors';
import { StreamNormalizer } from './normalize';
import { toCallOptions } from './prompt';
import { DEFAULT_RETRY, retryDelay, sleep, type RetryPolicy } from './retry';
import { connectTimeoutMessage, idleTimeoutMessage, resolveProviderTimeouts, type ProviderTimeouts } from './timeouts';
import type { LanguageModelPort, LlmErrorInfo, LlmRequest, Part } from './types';
import { WaitDeadline } from './waitDeadline';
import { createWire, type FetchFunction, type Wire } from './wires';

export interface CreateModelOptions {
  env: ConfigEnv;
  /** Overrides `OPENAI4S_<PROVIDER>_MODEL` and the catalog default. */
  model?: string;
  /** Overrides `OPENAI4S_<PROVIDER>_BASE_URL`; includes the version path (`http://127.0.0.1:8080/v1`). */
  baseUrl?: string;
  settingsKey?: SettingsKeyLookup;
  /** The base URL and model chosen in Settings (after the variables, before the catalogue). */
  settingsEndpoint?: SettingsEndpointLookup;
  retry?: Partial<RetryPolicy>;
  fetch?: FetchFunction;
  /**
   * A provider silent for this long between two stream parts is given up on, as a
   * `timeout` error (retried if nothing was streamed yet). Overrides
   * OPENAI4S_PROVIDER_IDLE_TIMEOUT_S (default 120 s; see timeouts.ts).
   */
  idleTimeoutMs?: number;
  /** Until the response headers arrive. Overrides OPENAI4S_PROVIDER_CONNECT_TIMEOUT_S (default 60 s). */
  connectTimeoutMs?: number;
  /** For jitter in tests. */
  random?: () => number;
}

function configError(message: string, code: string, provider: string): LlmError {
  return new LlmError({ errorType: 'authentication', code, message, status: null, provider, retryable: false });
}

/** Resolves a provider or throws an LlmError naming the fix (unknown id, missing key). */
export function resolveForModel(providerId: string, options: CreateModelOptions): ResolvedProvider {
  const spec = findProvider(providerId);
  if (!spec) {
    throw new LlmError({
      errorType: 'validation',
      code: 'unknown_provider',
      message: `Unknown provider "${providerId}". Use one of: ${PROVIDERS.map((p) => p.id).join(', ')}.`,
      status: null,
      provider: providerId,
      retryable: false,
    });
  }
  const resolved = resolveProvider(spec, options.env, options.settingsKey, options.settingsEndpoint);
  if (!resolved.configured) throw configError(missingKeyMessage(resolved), 'missing_api_key', spec.id);
  // From here on the key may come back in a provider's error body: never store or print it.
  registerSecrets([resolved.apiKey]);
  return {
    ...resolved,
    ...(options.baseUrl ? { baseUrl: options.baseUrl.replace(/\/+$/, ''), baseUrlSource: 'env' as const } : {}),
    ...(options.model ? { model: options.model, modelSource: 'env' as const } : {}),
  };
}

export function createModel(providerId: string, options: CreateModelOptions): LanguageModelPort {
  const resolved = resolveForModel(providerId, options);
  const wire = createWire({
    providerId: resolved.spec.id,
    wire: resolved.spec.wire,
    baseUrl: resolved.baseUrl,
    apiKey: resolved.apiKey,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
  const policy: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  const configured = resolveProviderTimeouts(options.env, resolved.spec.id);
  const timeouts: ProviderTimeouts = {
    idleMs: options.idleTimeoutMs ?? configured.idleMs,
    connectMs: options.connectTimeoutMs ?? configured.connectMs,
  };
  return {
    providerId: resolved.spec.id,
    model: resolved.model,
    baseUrl: resolved.baseUrl,
    stream: (request) => streamParts(wire, resolved, request, policy, options.random ?? Math.random, timeouts),
  };
}

/** The configured default provider (`OPENAI4S_PROVIDER`, else ark). */
export function createDefaultModel(options: CreateModelOptions): LanguageModelPort {
  return createModel(defaultProviderId(options.env), options);
}

/** Provider errors are recorded and shown: the key (or anything key-shaped) they echo is removed first. */
function scrubInfo(info: LlmErrorInfo, apiKey: string | null): LlmErrorInfo {
  return { ...info, message: scrubSecrets(info.message, [apiKey]), code: info.code && scrubSecrets(info.code, [apiKey]) };
}

function baseUrlHint(resolved: ResolvedProvider, modelId: string): string {
  return `Check OPENAI4S_${resolved.spec.envPrefix}_BASE_URL (it includes the version path, e.g. ${resolved.spec.baseUrl}) and the model id "${modelId}".`;
}

/** A 404 is nearly always a base URL without its version path, or a mistyped model. */
function withHint(info: LlmErrorInfo, resolved: ResolvedProvider, modelId: string): LlmErrorInfo {
  return info.status === 404 ? { ...info, message: `${info.message} (${baseUrlHint(resolved, modelId)})` } : info;
}

async function* streamParts(
  wire: Wire,
  resolved: ResolvedProvider,
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
