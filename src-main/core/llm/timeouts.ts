/**
 * How long a provider may keep us waiting. Two bounds, both configurable through the
 * environment or the data root's `.env`:
 * - connect: until the response headers arrive (a dead host, a proxy that accepts and
 *   never answers);
 * - idle: between two stream parts once the response has started (a stream that stalls).
 * A reasoning model streams its thinking, so a long silence means a dead stream, not a
 * slow model; the defaults are generous all the same, and the failure message names the
 * variable that raises them.
 */
import type { ConfigEnv } from '../config/env';
import { LlmError } from './errors';

export const IDLE_TIMEOUT_VAR = 'OPENAI4S_PROVIDER_IDLE_TIMEOUT_S';
export const CONNECT_TIMEOUT_VAR = 'OPENAI4S_PROVIDER_CONNECT_TIMEOUT_S';
export const DEFAULT_IDLE_TIMEOUT_S = 120;
export const DEFAULT_CONNECT_TIMEOUT_S = 60;
/** One day: anything longer is a typo (milliseconds given as seconds). */
const MAX_TIMEOUT_S = 86_400;

export interface ProviderTimeouts {
  idleMs: number;
  connectMs: number;
}

function seconds(env: ConfigEnv, name: string, fallback: number, provider: string): number {
  const raw = env.value(name)?.trim();
  if (!raw) return fallback * 1000;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || value > MAX_TIMEOUT_S) {
    throw new LlmError({
      errorType: 'validation',
      code: 'invalid_timeout',
      message: `${name}=${raw} is not a timeout: give a number of seconds from 1 to ${MAX_TIMEOUT_S} (default ${fallback}), in the environment or the data root's .env.`,
      status: null,
      provider,
      retryable: false,
    });
  }
  return Math.round(value * 1000);
}

/** The configured provider timeouts; a malformed value is an LlmError naming the variable. */
export function resolveProviderTimeouts(env: ConfigEnv, provider: string): ProviderTimeouts {
  return {
    idleMs: seconds(env, IDLE_TIMEOUT_VAR, DEFAULT_IDLE_TIMEOUT_S, provider),
    connectMs: seconds(env, CONNECT_TIMEOUT_VAR, DEFAULT_CONNECT_TIMEOUT_S, provider),
  };
}

const inSeconds = (ms: number) => (ms >= 1000 ? `${Math.round(ms / 1000)} s` : `${ms} ms`);

export function idleTimeoutMessage(provider: string, idleMs: number): string {
  return `${provider} sent nothing for ${inSeconds(idleMs)} in the middle of its reply, so the request was closed (provider idle timeout). If the model needs longer pauses, raise ${IDLE_TIMEOUT_VAR} (seconds; in the environment or the data root's .env).`;
}

export function connectTimeoutMessage(provider: string, baseUrl: string, connectMs: number): string {
  return `${provider} (${baseUrl}) did not start answering within ${inSeconds(connectMs)}, so the request was closed (provider connect timeout). Check the network and the base URL, or raise ${CONNECT_TIMEOUT_VAR} (seconds; in the environment or the data root's .env).`;
}
