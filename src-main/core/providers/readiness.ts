import type { ProviderReadiness } from '../../../src-preload/contract/providers';
import type { ResolvedProvider } from '../config/providers';
import { errorMessage } from '../shared/errorMessage';

/** How long a local endpoint may take to answer before it counts as not running. */
export const LOCAL_PROBE_TIMEOUT_MS = 1500;

const LOOPBACK_HOSTS = new Set(['localhost', '::1', '[::1]', '0.0.0.0']);

/** The base URL names this machine: a server there is "ready" only while it answers. */
export function isLocalUrl(baseUrl: string): boolean {
  let host: string;
  try {
    host = new URL(baseUrl).hostname.toLowerCase();
  } catch {
    return false;
  }
  return LOOPBACK_HOSTS.has(host) || /^127(\.\d{1,3}){3}$/.test(host) || host.endsWith('.localhost');
}

export type EndpointProbe = { answered: true } | { answered: false; detail: string; detailCode?: 'refused' | 'timeout'; timeoutS?: number };

/** The failure's own code (undici puts it on `cause`). */
function codeOf(error: unknown): string | null {
  for (let e: unknown = error, i = 0; e && i < 5; e = (e as { cause?: unknown }).cause, i++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
  }
  return null;
}

/**
 * Asks a local endpoint whether anything listens: `GET <baseUrl>/models` (the model list
 * of OpenAI-compatible servers, Ollama included). Any HTTP answer counts, even an error
 * status: the server runs, and the connection test says whether it serves the model.
 */
export async function probeEndpoint(
  baseUrl: string,
  options: { fetch?: typeof fetch; timeoutMs?: number } = {},
): Promise<EndpointProbe> {
  const timeoutMs = options.timeoutMs ?? LOCAL_PROBE_TIMEOUT_MS;
  try {
    const response = await (options.fetch ?? fetch)(`${baseUrl.replace(/\/+$/, '')}/models`, {
      signal: AbortSignal.timeout(timeoutMs),
      redirect: 'manual',
    });
    // Only whether it answered matters; the body is not read.
    await response.body?.cancel().catch(() => undefined);
    return { answered: true };
  } catch (error) {
    const code = codeOf(error);
    if (code === 'ECONNREFUSED') return { answered: false, detail: 'connection refused', detailCode: 'refused' };
    if (error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError'))
      return { answered: false, detail: `no answer within ${(timeoutMs / 1000).toFixed(1)} s`, detailCode: 'timeout', timeoutS: timeoutMs / 1000 };
    return { answered: false, detail: code ?? errorMessage(error) };
  }
}

/**
 * A provider's readiness: a key where one is needed, and for an endpoint on this machine
 * an answer just now. A remote provider with a key is ready without a call (it is not
 * contacted until used; Test connection sends a real request).
 */
export async function readinessOf(
  resolved: ResolvedProvider,
  probe: (baseUrl: string) => Promise<EndpointProbe>,
  now: () => Date = () => new Date(),
): Promise<ProviderReadiness> {
  if (!resolved.configured) return { state: 'no_key' };
  if (!isLocalUrl(resolved.baseUrl)) return { state: 'ready' };
  const answer = await probe(resolved.baseUrl);
  const checkedAt = now().toISOString();
  if (answer.answered) return { state: 'ready', checkedAt };
  const { answered: _answered, ...why } = answer;
  return { state: 'not_running', checkedAt, ...why };
}
