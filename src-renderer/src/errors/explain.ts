/**
 * Turns a run failure or a failed connection test into one sentence a scientist can act
 * on: the cause and the fix, in the UI's language (`problem.<kind>` messages). Pure: the
 * core classifies provider errors (errorType, code, status); older runs recorded only
 * their message, so that is read as a fallback. Codes are never the headline; the raw
 * provider message goes behind "details".
 */

export type ProblemKind =
  | 'no_key'
  | 'bad_key'
  | 'unknown_provider'
  | 'ollama_not_running'
  | 'not_running'
  | 'unreachable'
  | 'connection_lost'
  | 'timeout'
  | 'rate_limit'
  | 'quota'
  | 'model_unknown'
  | 'model_not_enabled'
  | 'wrong_endpoint'
  | 'too_large'
  | 'bad_request'
  | 'provider_error'
  | 'invalid_output'
  | 'budget_exhausted'
  | 'refused'
  | 'internal';

/** What went wrong, as recorded: the run's failure code and the provider error's category and codes. */
export interface ProblemInput {
  /** The run's failure code (`not_configured`, `provider_unavailable`, ...); absent for a connection test. */
  failureCode?: string | null;
  errorType?: string | null;
  /** The provider's own code (`invalid_api_key`, `ECONNREFUSED`, `http_404`, ...). */
  code?: string | null;
  status?: number | null;
  /** The raw message (shown behind "details"). */
  message: string;
}

/** The provider the failure is about, as the providers view knows it. */
export interface ProviderContext {
  id: string;
  label: string;
  baseUrl: string;
  model: string;
  local: boolean;
  defaultBaseUrl: string;
}

export interface Explanation {
  kind: ProblemKind;
  /** `setup`: the fix is in the provider setup (a key, base URL or model); every failure can also be retried. */
  fix: 'setup' | 'retry';
  params: { provider: string; baseUrl: string; model: string; example: string };
}

const SETUP_KINDS: ReadonlySet<ProblemKind> = new Set(['no_key', 'bad_key', 'unknown_provider', 'model_unknown', 'wrong_endpoint']);

const AUTH_CODES = /^(invalid_api_key|authentication_error|permission_error|AuthenticationError|AccessDenied|UNAUTHENTICATED|PERMISSION_DENIED)$/;
const QUOTA_CODES = /^(insufficient_quota|QuotaExceeded|AccountOverdueError)$/;
const MODEL_CODES = /^(model_not_found|not_found_error|InvalidEndpointOrModel\.NotFound|NOT_FOUND)$/;
const LOST_CODES = /^(ECONNRESET|UND_ERR_SOCKET|UND_ERR_CLOSED|ConnectionClosed|stream_truncated|EPIPE)$/;
const NETWORK_CODES = /^(ECONNREFUSED|ECONNRESET|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH|UND_ERR_SOCKET|UND_ERR_CLOSED|ConnectionRefused|ConnectionClosed|stream_truncated)$/;

/** The kind of a provider error, from its category and codes first, its text last (older runs). */
function providerKind(p: ProblemInput, ctx: ProviderContext | null): ProblemKind {
  const code = p.code ?? '';
  const text = `${code} ${p.message}`;
  if (code === 'missing_api_key' || /No API key for /.test(p.message)) return 'no_key';
  if (code === 'unknown_provider' || /Unknown provider "/.test(p.message)) return 'unknown_provider';
  if (QUOTA_CODES.test(code) || /insufficient[_ ]quota|out of credit|quota exceeded|overdue/i.test(p.message)) return 'quota';
  if (code === 'ModelNotOpen' || /ModelNotOpen|not (been )?activated/i.test(text)) return 'model_not_enabled';
  if (p.errorType === 'authentication' || AUTH_CODES.test(code) || p.status === 401 || p.status === 403) return 'bad_key';
  if (MODEL_CODES.test(code) || p.status === 404) return 'model_unknown';
  if (code === 'not_event_stream' || code === 'invalid_response' || /not an event stream/.test(p.message)) return 'wrong_endpoint';
  if (p.errorType === 'rate_limit' || p.status === 429 || /rate[_ ]?limit|too many requests/i.test(text)) return 'rate_limit';
  if (p.errorType === 'timeout' || /timeout|timed out|did not answer within/i.test(text)) return 'timeout';
  if (p.errorType === 'network' || NETWORK_CODES.test(code) || /ECONNREFUSED|ENOTFOUND|fetch failed/.test(p.message)) {
    const refused = code === 'ECONNREFUSED' || code === 'ConnectionRefused' || /ECONNREFUSED/.test(p.message);
    if (refused && ctx?.local) return ctx.id === 'ollama' ? 'ollama_not_running' : 'not_running';
    // The connection opened and then broke (mid-answer): reaching the provider is not the problem.
    if (LOST_CODES.test(code) || /stream ended|terminated|socket hang up/i.test(p.message)) return 'connection_lost';
    return 'unreachable';
  }
  if (/context[_ ]length|context window|maximum context|too many tokens|prompt is too long|request too large/i.test(text)) return 'too_large';
  if (p.errorType === 'validation' || p.status === 400 || p.status === 413 || p.status === 422) return 'bad_request';
  return 'provider_error';
}

export function problemKind(p: ProblemInput, ctx: ProviderContext | null): ProblemKind {
  switch (p.failureCode) {
    case 'invalid_output':
      return 'invalid_output';
    case 'budget_exhausted':
      return 'budget_exhausted';
    case 'refused':
      return 'refused';
    case 'input_too_large':
      return 'too_large';
    case 'internal':
      return 'internal';
    default:
      return providerKind(p, ctx);
  }
}

export function explainProblem(p: ProblemInput, ctx: ProviderContext | null, fallbackProvider: string): Explanation {
  const kind = problemKind(p, ctx);
  return {
    kind,
    fix: SETUP_KINDS.has(kind) ? 'setup' : 'retry',
    params: {
      provider: ctx?.label ?? fallbackProvider,
      baseUrl: ctx?.baseUrl ?? '',
      model: ctx?.model ?? '',
      example: ctx?.defaultBaseUrl ?? 'https://api.openai.com/v1',
    },
  };
}

/** The provider error a failed run recorded in its metadata (`run.providerError`), if any. */
export function providerErrorOf(metadata: unknown): { errorType: string | null; code: string | null; status: number | null; provider: string | null } | null {
  if (!metadata || typeof metadata !== 'object') return null;
  const run = (metadata as { run?: unknown }).run;
  const pe = run && typeof run === 'object' ? (run as { providerError?: unknown }).providerError : undefined;
  if (!pe || typeof pe !== 'object') return null;
  const v = pe as Record<string, unknown>;
  const str = (x: unknown) => (typeof x === 'string' ? x : null);
  return { errorType: str(v.errorType), code: str(v.code), status: typeof v.status === 'number' ? v.status : null, provider: str(v.provider) };
}
