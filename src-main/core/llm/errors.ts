/**
 * Classifies every failure a provider call can produce into the `errorType`s of
 * seeds/chat-stream-format.txt, keeping the provider's own code and message.
 */
import { APICallError } from '@ai-sdk/provider';
import { scrubSecrets } from '../security/secrets';
import type { LlmErrorInfo, LlmErrorType } from './types';
import { retryAfterFromHeaders } from '../shared/retryAfter';

/** An LLM failure raised before any request was made (missing key, unknown provider). */
export class LlmError extends Error {
  constructor(readonly info: LlmErrorInfo) {
    super(info.message);
    this.name = 'LlmError';
  }
}

const TIMEOUT_CODES = new Set(['ETIMEDOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'UND_ERR_CONNECT_TIMEOUT', 'ESOCKETTIMEDOUT']);
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'ConnectionRefused',
  'ConnectionClosed',
]);

/** Error types and codes providers put in their bodies, mapped to our categories. */
const PROVIDER_CODE_TYPES: Record<string, LlmErrorType> = {
  // OpenAI-compatible
  invalid_api_key: 'authentication',
  rate_limit_exceeded: 'rate_limit',
  insufficient_quota: 'rate_limit',
  context_length_exceeded: 'validation',
  model_not_found: 'llm',
  // Anthropic
  authentication_error: 'authentication',
  permission_error: 'authentication',
  rate_limit_error: 'rate_limit',
  overloaded_error: 'rate_limit',
  invalid_request_error: 'validation',
  request_too_large: 'validation',
  not_found_error: 'llm',
  api_error: 'llm',
  // Volcengine Ark (the codes of its API error reference)
  AuthenticationError: 'authentication',
  AccessDenied: 'authentication',
  RateLimitExceeded: 'rate_limit',
  RequestBurstTooFast: 'rate_limit',
  ServerOverloaded: 'rate_limit',
  QuotaExceeded: 'rate_limit',
  InvalidParameter: 'validation',
  MissingParameter: 'validation',
  'InvalidEndpointOrModel.NotFound': 'llm',
  ModelNotOpen: 'llm',
  InternalServiceError: 'llm',
  // Gemini (google.rpc.Code names)
  UNAUTHENTICATED: 'authentication',
  PERMISSION_DENIED: 'authentication',
  RESOURCE_EXHAUSTED: 'rate_limit',
  INVALID_ARGUMENT: 'validation',
  FAILED_PRECONDITION: 'validation',
  NOT_FOUND: 'llm',
  DEADLINE_EXCEEDED: 'timeout',
  UNAVAILABLE: 'llm',
  INTERNAL: 'llm',
};

/** Waiting does not help these: the account is out of quota or credit. */
const NOT_RETRYABLE_CODES = new Set(['insufficient_quota', 'QuotaExceeded', 'AccountOverdueError']);

export function typeForStatus(status: number): LlmErrorType {
  if (status === 401 || status === 403) return 'authentication';
  if (status === 429) return 'rate_limit';
  if (status === 408 || status === 504) return 'timeout';
  if (status === 400 || status === 413 || status === 422) return 'validation';
  // 404 (unknown model or endpoint), 5xx, 529 overloaded: the provider's API failed.
  return 'llm';
}

export function isRetryableStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

interface ProviderBody {
  code: string | null;
  message: string | null;
}

/** Reads `{error: {code|type|status, message}}` (OpenAI, Anthropic, Gemini) or `{type, message}`. */
export function readProviderError(value: unknown): ProviderBody {
  let v = value;
  if (typeof value === 'string') {
    try {
      v = JSON.parse(value);
    } catch {
      // A plain-text error body: its text is the message.
      return { code: null, message: value.trim() ? value.trim().slice(0, 2000) : null };
    }
  }
  if (Array.isArray(v)) v = v[0]; // Gemini sometimes wraps the error body in an array
  if (!v || typeof v !== 'object') return { code: null, message: null };
  const obj = v as Record<string, unknown>;
  const inner = (obj.error && typeof obj.error === 'object' ? obj.error : obj) as Record<string, unknown>;
  const pick = (...keys: string[]): string | null => {
    for (const k of keys) {
      const x = inner[k];
      if (typeof x === 'string' && x) return x;
      if (typeof x === 'number') return String(x);
    }
    return null;
  };
  return { code: pick('code', 'type', 'status'), message: pick('message') ?? (typeof obj.message === 'string' ? obj.message : null) };
}

function errorChain(error: unknown): unknown[] {
  const chain: unknown[] = [];
  let current = error;
  while (current && chain.length < 8 && !chain.includes(current)) {
    chain.push(current);
    current = (current as { cause?: unknown }).cause;
  }
  return chain;
}

function networkCode(error: unknown): string | null {
  for (const e of errorChain(error)) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && (TIMEOUT_CODES.has(code) || NETWORK_CODES.has(code))) return code;
  }
  return null;
}

export function isAbortError(error: unknown): boolean {
  return errorChain(error).some((e) => e instanceof Error && (e.name === 'AbortError' || e.name === 'ResponseAborted'));
}

/**
 * Classifies a failure. The message is scrubbed of secrets: providers echo keys in
 * their 401 bodies, proxies echo request headers, and the message is recorded.
 */
export function classifyError(error: unknown, provider: string): LlmErrorInfo {
  const info = classifyUnscrubbed(error, provider);
  return { ...info, message: scrubSecrets(info.message), code: info.code && scrubSecrets(info.code) };
}

function classifyUnscrubbed(error: unknown, provider: string): LlmErrorInfo {
  if (error instanceof LlmError) return error.info;
  const netCode = networkCode(error);
  if (APICallError.isInstance(error)) {
    const status = error.statusCode ?? null;
    const body = readProviderError(error.data ?? error.responseBody);
    if (status === null || netCode) {
      // No response, or the connection died while the body was being read.
      const errorType: LlmErrorType = netCode && TIMEOUT_CODES.has(netCode) ? 'timeout' : 'network';
      return { errorType, code: netCode, message: `${messageOf(error)} (${error.url}); ${unreachableHint(error.url, netCode)}`, status, provider, retryable: true };
    }
    const byCode = body.code ? PROVIDER_CODE_TYPES[body.code] : undefined;
    return {
      errorType: byCode ?? typeForStatus(status),
      code: body.code ?? `http_${status}`,
      message: body.message ?? error.message,
      status,
      provider,
      retryable: isRetryableStatus(status) && !(body.code !== null && NOT_RETRYABLE_CODES.has(body.code)),
    };
  }
  if (netCode) {
    const errorType: LlmErrorType = TIMEOUT_CODES.has(netCode) ? 'timeout' : 'network';
    return { errorType, code: netCode, message: messageOf(error), status: null, provider, retryable: true };
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return { errorType: 'timeout', code: 'timeout', message: error.message, status: null, provider, retryable: true };
  }
  const name = error instanceof Error ? error.name : '';
  if (name.startsWith('AI_JSONParseError') || name.startsWith('AI_TypeValidationError') || name.startsWith('AI_InvalidResponseDataError')) {
    // The provider sent bytes that are not its own protocol.
    return { errorType: 'llm', code: 'invalid_response', message: messageOf(error), status: null, provider, retryable: false };
  }
  if (error && typeof error === 'object' && !(error instanceof Error)) {
    // An error event inside the stream (`{"error": {...}}` chunk, Anthropic `event: error`).
    const body = readProviderError(error);
    if (body.code || body.message) {
      const byCode = body.code ? PROVIDER_CODE_TYPES[body.code] : undefined;
      return {
        errorType: byCode ?? 'llm',
        code: body.code,
        message: body.message ?? JSON.stringify(error).slice(0, 2000),
        status: null,
        provider,
        retryable: byCode === 'rate_limit',
      };
    }
  }
  if (error instanceof Error) {
    return { errorType: 'internal', code: name || null, message: error.message, status: null, provider, retryable: false };
  }
  return { errorType: 'unknown', code: null, message: messageOf(error), status: null, provider, retryable: false };
}

/** What to do when a provider's server did not answer: start it, or fix its address. */
function unreachableHint(url: string, code: string | null): string {
  let origin = url;
  try {
    origin = new URL(url).origin;
  } catch {
    // Not a url: named as given.
  }
  const local = /^https?:\/\/(localhost|127\.|\[::1\])/i.test(origin);
  const start = local ? `start the model server at ${origin} (for Ollama: ollama serve)` : `check the network and that ${origin} is up`;
  const slow = code && TIMEOUT_CODES.has(code) ? ' (it did not answer in time)' : '';
  return `${start}${slow}, or change the provider’s base URL in Settings → Providers.`;
}

function messageOf(error: unknown): string {
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    // The AI SDK's "Cannot connect to API: <cause>" already carries its cause's words: not twice.
    return cause instanceof Error && cause.message && !error.message.includes(cause.message) ? `${error.message}: ${cause.message}` : error.message;
  }
  if (typeof error === 'string') return error;
  try {
    return JSON.stringify(error).slice(0, 2000);
  } catch {
    return String(error);
  }
}

/** The wait a provider's error response asks for (see shared/retryAfter.ts); null when it asks none. */
export function retryAfterOf(error: unknown, now = Date.now()): number | null {
  if (!APICallError.isInstance(error) || !error.responseHeaders) return null;
  const headers = new Map(Object.entries(error.responseHeaders).map(([k, v]) => [k.toLowerCase(), v]));
  return retryAfterFromHeaders((name) => headers.get(name), now);
}
