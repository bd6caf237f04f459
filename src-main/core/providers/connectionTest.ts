import type { ConnectionTestResult, ProviderProblem } from '../../../src-preload/contract/providers';
import { overlayEnv, type ConfigEnv } from '../config/env';
import { findProvider } from '../config/providerCatalog';
import type { SettingsEndpointLookup, SettingsKeyLookup } from '../config/providers';
import { LlmError, classifyError } from '../llm/errors';
import { createModel } from '../llm/model';
import type { FetchFunction, LlmErrorInfo } from '../llm/types';
import { scrubSecrets } from '../security/secrets';

/** What the setup form holds; absent values are the saved (or default) ones. */
export interface TestForm {
  key?: string;
  baseUrl?: string;
  model?: string;
}

export interface ConnectionTestDeps {
  env: ConfigEnv;
  settingsKey?: SettingsKeyLookup;
  settingsEndpoint?: SettingsEndpointLookup;
  fetch?: FetchFunction;
  /** Until the response headers arrive (default 20 s: a test should answer quickly or say why). */
  connectTimeoutMs?: number;
  now?: () => number;
}

/** The request: as small as a request can be while still exercising the model. */
export const TEST_PROMPT = 'Reply with the single word OK.';
const TEST_MAX_OUTPUT_TOKENS = 64;

function problemOf(info: LlmErrorInfo): ProviderProblem {
  return { errorType: info.errorType, code: info.code, status: info.status, message: scrubSecrets(info.message) };
}

/**
 * Sends one tiny real request through `createModel`, the path every run takes (the same
 * key resolution, wire, timeouts and error classification), with the form's key, base
 * URL and model over the saved ones. No retries: the answer should come at once, and a
 * failure is explained rather than waited out. The reply is cut after its first words.
 */
export async function testConnection(providerId: string, form: TestForm, deps: ConnectionTestDeps): Promise<ConnectionTestResult> {
  const now = deps.now ?? Date.now;
  const started = now();
  const spec = findProvider(providerId);
  // The form's key goes in as the provider's own variable, so it wins over any other layer, as typed.
  const env = form.key && spec ? overlayEnv(deps.env, { [`OPENAI4S_${spec.envPrefix}_API_KEY`]: form.key }) : deps.env;
  let model;
  try {
    model = createModel(providerId, {
      env,
      ...(form.baseUrl ? { baseUrl: form.baseUrl } : {}),
      ...(form.model ? { model: form.model } : {}),
      ...(deps.settingsKey ? { settingsKey: deps.settingsKey } : {}),
      ...(deps.settingsEndpoint ? { settingsEndpoint: deps.settingsEndpoint } : {}),
      ...(deps.fetch ? { fetch: deps.fetch } : {}),
      retry: { maxRetries: 0 },
      connectTimeoutMs: deps.connectTimeoutMs ?? 20_000,
      idleTimeoutMs: 30_000,
    });
  } catch (error) {
    const info = error instanceof LlmError ? error.info : classifyError(error, providerId);
    return {
      ok: false,
      providerId,
      baseUrl: form.baseUrl ?? '',
      model: form.model ?? '',
      elapsedMs: now() - started,
      problem: problemOf(info),
    };
  }
  const base = { providerId, baseUrl: model.baseUrl, model: model.model };
  const controller = new AbortController();
  let reply = '';
  try {
    for await (const part of model.stream({
      messages: [{ role: 'user', content: TEST_PROMPT }],
      maxOutputTokens: TEST_MAX_OUTPUT_TOKENS,
      signal: controller.signal,
    })) {
      if (part.type === 'error') return { ...base, ok: false, elapsedMs: now() - started, problem: problemOf(part.error) };
      if (part.type === 'text-delta') reply += part.text;
      // The model answered: enough to know the key, URL and model work; stop spending tokens.
      if (reply.trim().length >= 2 || part.type === 'reasoning-delta' || part.type === 'finish') break;
    }
  } finally {
    controller.abort();
  }
  return { ...base, ok: true, elapsedMs: now() - started, reply: reply.trim().slice(0, 200) };
}
