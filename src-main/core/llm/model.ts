/**
 * `createModel(providerId, {env})` -> a LanguageModelPort: resolves key, base URL and
 * model (config/providers.ts), refuses at once without a key, and streams normalized
 * parts with bounded retries before the first output and immediate abort.
 */
import type { ConfigEnv } from '../config/env';
import { PROVIDERS, findProvider } from '../config/providerCatalog';
import { baseUrlProblem, defaultProviderId, missingKeyMessage, resolveProvider, type ResolvedProvider, type SettingsEndpointLookup, type SettingsKeyLookup } from '../config/providers';
import { registerSecrets } from '../security/secrets';
import { LlmError } from './errors';
import { NATIVE_FETCH } from './httpFetch';
import { streamFromProvider } from './providerStream';
import { DEFAULT_RETRY, type RetryPolicy } from './retry';
import { modelThread } from './thread/modelThread';
import { resolveProviderTimeouts, type ProviderTimeouts } from './timeouts';
import type { LanguageModelPort, LlmRequest } from './types';
import { createWire, type FetchFunction } from './wires';

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
  const badUrl = baseUrlProblem(resolved);
  if (badUrl) throw configError(badUrl, 'invalid_base_url', spec.id);
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
  const inProcess = (request: LlmRequest) => streamFromProvider(wire, resolved, request, policy, options.random ?? Math.random, timeouts);
  // A model given its own fetch or randomness (tests, a proxy-aware fetch) keeps its stream here, where they live.
  const threaded = !options.fetch && !options.random && threadAllowed(options.env);
  if (threaded) void modelThread.start();
  const job = { providerId: resolved.spec.id, wire: resolved.spec.wire, baseUrl: resolved.baseUrl, apiKey: resolved.apiKey, model: resolved.model, policy, timeouts };
  return {
    providerId: resolved.spec.id,
    model: resolved.model,
    baseUrl: resolved.baseUrl,
    stream: (request) => (threaded ? modelThread.stream(job, request, () => inProcess(request)) : inProcess(request)),
  };
}

/** Streams may go to the model thread: not switched off, and fetch is still Node's own (a replaced one lives here). */
function threadAllowed(env: ConfigEnv): boolean {
  return globalThis.fetch === NATIVE_FETCH && env.value('OPENAI4S_MODEL_THREAD') !== 'off';
}

/**
 * Starts the model thread ahead of the first stream (the app calls it once its window is up):
 * the thread loads the provider packages, about 0.2 s, before the user's first message
 * instead of during it. Does nothing where streams would not use the thread.
 */
export function prewarmModelThread(env: ConfigEnv): void {
  if (threadAllowed(env)) void modelThread.start();
}

/** The configured default provider (`OPENAI4S_PROVIDER`, else ark). */
export function createDefaultModel(options: CreateModelOptions): LanguageModelPort {
  return createModel(defaultProviderId(options.env), options);
}
