import { findProvider } from '../config/providerCatalog';

/** `OPENAI4S_CONTEXT_WINDOW`: the window in tokens, for a model this table does not know (or to compact earlier). */
export const CONTEXT_WINDOW_VAR = 'OPENAI4S_CONTEXT_WINDOW';

/** Used when neither the model nor its provider is known: small enough for any current chat model. */
export const SAFE_DEFAULT_WINDOW = 32_000;

/** Input windows of the model families the provider catalogue offers, from each vendor's model pages. */
const FAMILIES: readonly [RegExp, number][] = [
  [/^(openai\/)?gpt-4\.1/, 1_047_576],
  [/^(openai\/)?gpt-5/, 400_000],
  [/^(openai\/)?(o1|o3|o4)/, 200_000],
  [/^(openai\/)?(gpt-4o|chatgpt-4o|gpt-4-turbo)/, 128_000],
  [/^(openai\/)?gpt-oss/, 131_072],
  [/^(openai\/)?gpt-4/, 8_192],
  [/^(openai\/)?gpt-3\.5/, 16_385],
  [/^(anthropic\/)?claude/, 200_000],
  [/^(google\/)?gemini-(1\.5|2|3)/, 1_048_576],
  [/^(deepseek\/)?deepseek/, 128_000],
  [/^doubao-seed/, 256_000],
  [/^doubao/, 128_000],
];

/**
 * Per provider, for a model the table does not know. Ollama serves with its own small
 * `num_ctx` unless the user raised it (and cuts the prompt silently beyond it), so its
 * default is the conservative one.
 */
const PROVIDER_DEFAULTS: Record<string, number> = {
  ollama: 8_192,
  openrouter: 128_000,
};

export interface ContextWindow {
  tokens: number;
  /** Where the number came from: `env`, `model`, `provider` or `default`. */
  source: 'env' | 'model' | 'provider' | 'default';
}

/** The input window of `model` at `providerId`: the override, the model family, the provider's default, or the safe default. */
export function contextWindowFor(providerId: string, model: string, override?: string): ContextWindow {
  if (override !== undefined && override.trim()) {
    const n = Number(override.trim());
    if (!Number.isInteger(n) || n < 2_000) {
      throw new Error(`${CONTEXT_WINDOW_VAR}=${override} is not a window size. Set it to a whole number of tokens (at least 2000), e.g. 128000.`);
    }
    return { tokens: n, source: 'env' };
  }
  const id = model.toLowerCase();
  for (const [pattern, tokens] of FAMILIES) if (pattern.test(id)) return { tokens, source: 'model' };
  const known = PROVIDER_DEFAULTS[providerId];
  if (known) return { tokens: known, source: 'provider' };
  // A catalogued provider's default model is in the table; anything else gets the safe default.
  const spec = findProvider(providerId);
  if (spec && spec.defaultModel !== model) return { tokens: contextWindowFor(providerId, spec.defaultModel).tokens, source: 'provider' };
  return { tokens: SAFE_DEFAULT_WINDOW, source: 'default' };
}
