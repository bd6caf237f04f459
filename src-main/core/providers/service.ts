import type { ConnectionTestResult, ProviderStatus, ProvidersView } from '../../../src-preload/contract/providers';
import type { CoreConfig } from '../config/coreConfig';
import { findProvider, PROVIDERS } from '../config/providerCatalog';
import { resolveProvider } from '../config/providers';
import { AppError } from '../../../src-preload/contract/errors';
import type { ProviderEndpoints } from '../settings/providerEndpoints';
import type { SettingsService } from '../settings/settingsService';
import type { FetchFunction } from '../llm/types';
import { testConnection, type TestForm } from './connectionTest';
import { isLocalUrl, probeEndpoint, readinessOf, type EndpointProbe } from './readiness';

export interface ProviderServiceDeps {
  config: Pick<CoreConfig, 'env' | 'defaultProvider' | 'settingsKey' | 'settingsEndpoint'>;
  settings: Pick<SettingsService, 'readOrDefaults' | 'update' | 'setKey' | 'view'>;
  endpoints: ProviderEndpoints;
  /** Asks a local endpoint whether it answers (tests pass their own). */
  probe?: (baseUrl: string) => Promise<EndpointProbe>;
  fetch?: FetchFunction;
}

/** A local endpoint's answer is reused this long, so the composer, Settings and System page asking together probe once. */
const PROBE_TTL_MS = 10_000;

/**
 * Providers for the user (the setup form, the composer's picker, Settings, the System
 * page): each one's resolved configuration and readiness, saving the setup form, and the
 * connection test. The answers never hold a key, only a stored key's hint.
 */
export class ProviderService {
  private readonly probes = new Map<string, { at: number; answer: Promise<EndpointProbe> }>();

  constructor(private readonly deps: ProviderServiceDeps) {}

  /** The provider new messages use: the one chosen in Settings, else OPENAI4S_PROVIDER, else ark. */
  defaultProviderId(): string {
    const chosen = this.deps.settings.readOrDefaults().defaultProvider;
    return chosen && findProvider(chosen) ? chosen : this.deps.config.defaultProvider;
  }

  async list(refresh = false): Promise<ProvidersView> {
    const { config } = this.deps;
    const view = this.deps.settings.view();
    const defaultProvider = this.defaultProviderId();
    const providers = await Promise.all(
      PROVIDERS.map(async (spec): Promise<ProviderStatus> => {
        const resolved = resolveProvider(spec, config.env, config.settingsKey, config.settingsEndpoint);
        return {
          id: spec.id,
          label: spec.label,
          local: isLocalUrl(resolved.baseUrl),
          requiresKey: spec.requiresKey,
          keySource: resolved.keySource,
          keyVariable: resolved.keyVariable,
          keyVariables: resolved.keyVariables,
          storedKeyHint: view.keys.find((k) => k.providerId === spec.id)?.hint ?? null,
          baseUrl: resolved.baseUrl,
          baseUrlOrigin: resolved.baseUrlSource,
          baseUrlVariable: resolved.baseUrlVariable,
          defaultBaseUrl: spec.baseUrl,
          model: resolved.model,
          modelOrigin: resolved.modelSource,
          modelVariable: resolved.modelVariable,
          defaultModel: spec.defaultModel,
          isDefault: spec.id === defaultProvider,
          readiness: await readinessOf(resolved, (url) => this.probe(url, refresh)),
          docsUrl: spec.docsUrl,
          keyUrl: spec.keyUrl,
        };
      }),
    );
    return { providers, defaultProvider, keyStorage: view.keyStorage };
  }

  /** Saves the setup form: key (encrypted), base URL and model (null: the catalogue's), and the default if asked. */
  async configure(input: { providerId: string; key?: string | undefined; baseUrl?: string | null | undefined; model?: string | null | undefined; makeDefault?: boolean | undefined }): Promise<ProvidersView> {
    const spec = findProvider(input.providerId);
    if (!spec) throw new AppError('invalid_input', `Unknown provider "${input.providerId}". Use one of: ${PROVIDERS.map((p) => p.id).join(', ')}.`);
    if (input.baseUrl) checkBaseUrl(input.baseUrl);
    // The key first: where keys cannot be stored, nothing else of the form is half-saved.
    if (input.key) this.deps.settings.setKey(spec.id, input.key);
    this.deps.endpoints.set(spec.id, {
      ...(input.baseUrl !== undefined ? { baseUrl: input.baseUrl } : {}),
      ...(input.model !== undefined ? { model: input.model } : {}),
    });
    if (input.makeDefault) this.deps.settings.update({ defaultProvider: spec.id });
    // A new base URL is a new endpoint: ask it now, not from the last answer.
    return this.list(true);
  }

  test(input: { providerId: string } & TestForm): Promise<ConnectionTestResult> {
    if (input.baseUrl) checkBaseUrl(input.baseUrl);
    const { config } = this.deps;
    return testConnection(
      input.providerId,
      { ...(input.key ? { key: input.key } : {}), ...(input.baseUrl ? { baseUrl: input.baseUrl } : {}), ...(input.model ? { model: input.model } : {}) },
      {
        env: config.env,
        ...(config.settingsKey ? { settingsKey: config.settingsKey } : {}),
        ...(config.settingsEndpoint ? { settingsEndpoint: config.settingsEndpoint } : {}),
        ...(this.deps.fetch ? { fetch: this.deps.fetch } : {}),
      },
    );
  }

  private probe(baseUrl: string, refresh: boolean): Promise<EndpointProbe> {
    const known = this.probes.get(baseUrl);
    if (known && !refresh && Date.now() - known.at < PROBE_TTL_MS) return known.answer;
    const answer = (this.deps.probe ?? probeEndpoint)(baseUrl);
    this.probes.set(baseUrl, { at: Date.now(), answer });
    return answer;
  }
}

/** A base URL the wire can use: http(s), a host, no credentials in it (they would be logged with the URL). */
function checkBaseUrl(value: string): void {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new AppError('invalid_input', `"${value}" is not a URL; a base URL looks like https://api.openai.com/v1.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError('invalid_input', 'The base URL starts with http:// or https://.');
  if (url.username || url.password) throw new AppError('invalid_input', 'Put the key in the key field, not in the base URL.');
}
