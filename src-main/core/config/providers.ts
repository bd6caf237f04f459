import type { ConfigEnv, ValueSource } from './env';
import { DEFAULT_PROVIDER_ID, PROVIDERS, findProvider, type ProviderSpec } from './providerCatalog';

export type KeySource = ValueSource | 'settings' | 'none';
/** Where a provider's base URL or model came from: a variable, Settings, or the catalogue. */
export type EndpointSource = ValueSource | 'settings' | 'default';

/** A provider's resolved configuration. The key itself is only ever held, never printed. */
export interface ResolvedProvider {
  spec: ProviderSpec;
  apiKey: string | null;
  keySource: KeySource;
  /** The variable that supplied the key, or null. */
  keyVariable: string | null;
  /** The variables that would supply a key, in the order they are read. */
  keyVariables: string[];
  baseUrl: string;
  baseUrlSource: EndpointSource;
  /** The variable that sets the base URL (`OPENAI4S_<PROVIDER>_BASE_URL`): it wins over Settings. */
  baseUrlVariable: string;
  model: string;
  modelSource: EndpointSource;
  modelVariable: string;
  configured: boolean;
}

/** Keys from the encrypted Settings store (Electron safeStorage); absent under the CLI. */
export type SettingsKeyLookup = (providerId: string) => string | null;

/** A provider's base URL and model chosen in Settings (the ledger's settings table); null: none chosen. */
export interface EndpointChoice {
  baseUrl?: string | null;
  model?: string | null;
}
export type SettingsEndpointLookup = (providerId: string) => EndpointChoice | null;

// Values copied from a template are not keys: empty, "<...>", "your-key", "sk-xxx", "changeme", ...
const PLACEHOLDER =
  /^(?:<.*>|\$\{.*\}|\.{3,}|x{3,}|\*{3,}|sk-(?:x+|\.\.\.|your.*)|your[-_ ]?.*|.*placeholder.*|changeme|change-me|todo|none|null|undefined|api[-_]?key)$/i;

export function isPlaceholderKey(value: string | undefined | null): boolean {
  if (value === undefined || value === null) return true;
  const v = value.trim();
  return v === '' || PLACEHOLDER.test(v);
}

export function keyVariablesFor(spec: ProviderSpec): string[] {
  return [`OPENAI4S_${spec.envPrefix}_API_KEY`, 'OPENAI4S_LLM_API_KEY'];
}

export function resolveProvider(
  spec: ProviderSpec,
  env: ConfigEnv,
  settingsKey?: SettingsKeyLookup,
  settingsEndpoint?: SettingsEndpointLookup,
): ResolvedProvider {
  const keyVariables = keyVariablesFor(spec);
  let apiKey: string | null = null;
  let keySource: KeySource = 'none';
  let keyVariable: string | null = null;
  for (const name of keyVariables) {
    const found = env.get(name);
    if (found && !isPlaceholderKey(found.value)) {
      apiKey = found.value.trim();
      keySource = found.source;
      keyVariable = name;
      break;
    }
  }
  if (!apiKey && settingsKey) {
    const stored = settingsKey(spec.id);
    if (stored && !isPlaceholderKey(stored)) {
      apiKey = stored;
      keySource = 'settings';
    }
  }
  // Like keys: a variable wins over Settings, Settings over the catalogue's default.
  const baseUrlVariable = `OPENAI4S_${spec.envPrefix}_BASE_URL`;
  const modelVariable = `OPENAI4S_${spec.envPrefix}_MODEL`;
  const base = env.get(baseUrlVariable);
  const model = env.get(modelVariable);
  const chosen = settingsEndpoint?.(spec.id) ?? null;
  const chosenBase = chosen?.baseUrl?.trim() || null;
  const chosenModel = chosen?.model?.trim() || null;
  return {
    spec,
    apiKey,
    keySource,
    keyVariable,
    keyVariables,
    baseUrl: (base?.value.trim() || chosenBase || spec.baseUrl).replace(/\/+$/, ''),
    baseUrlSource: base?.value.trim() ? base.source : chosenBase ? 'settings' : 'default',
    baseUrlVariable,
    model: model?.value.trim() || chosenModel || spec.defaultModel,
    modelSource: model?.value.trim() ? model.source : chosenModel ? 'settings' : 'default',
    modelVariable,
    configured: apiKey !== null || !spec.requiresKey,
  };
}

/** `OPENAI4S_PROVIDER` names the default provider; unknown names are a clear error. */
export function defaultProviderId(env: ConfigEnv): string {
  const chosen = env.value('OPENAI4S_PROVIDER')?.trim();
  if (!chosen) return DEFAULT_PROVIDER_ID;
  if (!findProvider(chosen)) {
    const known = PROVIDERS.map((p) => p.id).join(', ');
    throw new Error(`OPENAI4S_PROVIDER=${chosen} is not a known provider. Use one of: ${known}.`);
  }
  return chosen;
}

/**
 * Why the provider's base URL cannot be used, or null: a typo in a variable or the data
 * root's .env otherwise surfaces as "Invalid URL" from deep in the HTTP client, and doctor
 * called the provider fine.
 */
export function baseUrlProblem(resolved: ResolvedProvider): string | null {
  let url: URL | null = null;
  try {
    url = new URL(resolved.baseUrl);
  } catch {
    // Not a URL at all: said below.
  }
  if (url && (url.protocol === 'https:' || url.protocol === 'http:')) return null;
  const where = resolved.baseUrlSource === 'settings' ? `the base URL saved in Settings for ${resolved.spec.label} ("${resolved.baseUrl}")` : `${resolved.baseUrlVariable}=${resolved.baseUrl}`;
  return `${where} is not an http(s) URL; set it like ${resolved.spec.baseUrl} or unset it.`;
}

/** The error a run gets when its provider has no key: names the variables and the Settings page. */
export function missingKeyMessage(resolved: ResolvedProvider): string {
  const vars = resolved.keyVariables.join(' or ');
  return `No API key for ${resolved.spec.label}. Set ${vars} (in your environment or the data root's .env), or enter a key in Settings → Providers.`;
}
