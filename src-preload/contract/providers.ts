import { z } from 'zod';
import { route } from './define';
import type { KeyStorageStatus } from './settings';

/**
 * Model providers as the setup screen, the composer's picker, Settings and the System
 * page see them: one status per provider of the catalogue, with its readiness, and a
 * connection test that sends one tiny real request through the run's own provider path.
 */

/**
 * Whether a message sent now could reach the provider:
 * - `ready`: it has what it needs (a key, or none needed) and, for an endpoint on this
 *   machine (Ollama, a local server), that endpoint answered just now;
 * - `no_key`: a key is needed and none is set (Settings, the environment or `.env`);
 * - `not_running`: the endpoint is on this machine and nothing answers there.
 */
export type ReadinessState = 'ready' | 'no_key' | 'not_running';

export interface ProviderReadiness {
  state: ReadinessState;
  /** When a local endpoint was last asked (absent for remote providers: they are not called until used). */
  checkedAt?: string;
  /** Why a local endpoint did not answer, e.g. "connection refused" (never a key). */
  detail?: string;
  /** Which case `detail` is, for the window to say in its language (with the wait in seconds for a timeout). */
  detailCode?: 'refused' | 'timeout';
  timeoutS?: number;
}

/** Where a value came from: a variable (the real environment or the data root's .env), Settings, or the catalogue. */
export type ValueOrigin = 'env' | 'dotenv' | 'settings' | 'default';

export interface ProviderStatus {
  id: string;
  label: string;
  /** The base URL is on this machine (127.0.0.1, localhost, ::1): it is "ready" only when it answers. */
  local: boolean;
  requiresKey: boolean;
  /** Where the key came from, or `none`. */
  keySource: 'env' | 'dotenv' | 'settings' | 'none';
  /** The variable that supplied the key, or null. */
  keyVariable: string | null;
  /** The variables that would supply a key, in the order they are read (they win over Settings). */
  keyVariables: string[];
  /** The stored key's hint ("••••abcd") when Settings holds one. */
  storedKeyHint: string | null;
  baseUrl: string;
  baseUrlOrigin: ValueOrigin;
  /** `OPENAI4S_<PROVIDER>_BASE_URL`: set, it wins over Settings. */
  baseUrlVariable: string;
  defaultBaseUrl: string;
  model: string;
  modelOrigin: ValueOrigin;
  modelVariable: string;
  defaultModel: string;
  /** The provider new messages use unless the composer picks another (Settings, else OPENAI4S_PROVIDER, else ark). */
  isDefault: boolean;
  readiness: ProviderReadiness;
  /** The provider's documentation. */
  docsUrl: string;
  /** Where a key is created (the provider's console), or null when none is needed. */
  keyUrl: string | null;
}

export interface ProvidersView {
  providers: ProviderStatus[];
  /** The id of the provider with `isDefault`. */
  defaultProvider: string;
  /** Whether keys can be stored here (the desktop app) and why not otherwise. */
  keyStorage: KeyStorageStatus;
}

/**
 * A provider failure as the core classified it, for the renderer to explain in the UI's
 * language. `message` is the provider's own text (scrubbed of keys), shown only behind
 * "details".
 */
export interface ProviderProblem {
  /** The categories of the chat stream format: authentication, rate_limit, network, timeout, validation, llm, internal, unknown. */
  errorType: string;
  /** The provider's code (`invalid_api_key`, `ECONNREFUSED`, `http_404`, ...) or ours (`missing_api_key`, `not_event_stream`). */
  code: string | null;
  status: number | null;
  message: string;
}

export type ConnectionTestResult = {
  providerId: string;
  baseUrl: string;
  model: string;
  /** From sending the request to its end. */
  elapsedMs: number;
} & ({ ok: true; /** The start of the model's reply. */ reply: string } | { ok: false; problem: ProviderProblem });

const providerId = z
  .string()
  .regex(/^[a-z][a-z0-9_-]{0,31}$/, 'a provider id is lowercase letters, digits, "_" or "-"');

const key = z
  .string()
  .trim()
  .min(8, 'the key is shorter than 8 characters; paste the whole key')
  .max(1000)
  .regex(/^\S+$/, 'the key contains spaces or line breaks; paste only the key');

const baseUrl = z
  .string()
  .trim()
  .max(500)
  .regex(/^https?:\/\/[^\s/]+/i, 'the base URL starts with http:// or https:// and names a host, e.g. https://api.openai.com/v1');

const model = z.string().trim().min(1, 'the model id is empty').max(200).regex(/^\S+$/, 'a model id has no spaces');

export const providerRoutes = {
  /** Every provider with its readiness; `refresh` asks local endpoints again instead of answering from the last check. */
  'provider.list': route<ProvidersView>()(z.object({ refresh: z.boolean().optional() }).strict().default({})),
  /**
   * Saves what the setup form holds: the key (encrypted; absent = keep the stored one),
   * the base URL and model (null = back to the catalogue's), and optionally makes the
   * provider the default of new messages.
   */
  'provider.configure': route<ProvidersView>()(
    z
      .object({
        providerId,
        key: key.optional(),
        baseUrl: baseUrl.nullable().optional(),
        model: model.nullable().optional(),
        makeDefault: z.boolean().optional(),
      })
      .strict(),
  ),
  /**
   * One tiny real request ("reply OK") through the provider path a run uses, with the
   * form's values over the saved ones; nothing is saved.
   */
  'provider.test': route<ConnectionTestResult>()(
    z
      .object({
        providerId,
        key: key.optional(),
        baseUrl: baseUrl.optional(),
        model: model.optional(),
      })
      .strict(),
  ),
};
