/**
 * Prices per million tokens, so a run can show what it cost. Ark (Doubao) in ¥,
 * everything else in $. Prices change: each entry names where it was read; a
 * model that is not listed gets no cost (null), never a guess.
 * Cache writes (Anthropic charges 1.25x input for them) are counted as plain input.
 */
import type { Cost, Currency, Usage } from './types';

interface Tier {
  /** This tier applies while the prompt has at most this many tokens; null = no limit. */
  maxPromptTokens: number | null;
  input: number;
  cachedInput: number;
  output: number;
}

export interface PriceEntry {
  provider: string;
  model: string;
  currency: Currency;
  tiers: Tier[];
  source: string;
}

const flat = (input: number, cachedInput: number, output: number): Tier[] => [
  { maxPromptTokens: null, input, cachedInput, output },
];

const ARK = 'Volcengine Ark model pricing page (火山方舟 模型服务价格, read 2025)';
const OPENAI = 'https://platform.openai.com/docs/pricing (read 2025)';
const ANTHROPIC = 'https://docs.anthropic.com/en/docs/about-claude/pricing (read 2025)';
const GEMINI = 'https://ai.google.dev/gemini-api/docs/pricing (read 2025)';
const DEEPSEEK = 'https://api-docs.deepseek.com/quick_start/pricing (read 2025-09, V3.2)';

const e = (provider: string, model: string, currency: Currency, tiers: Tier[], source: string): PriceEntry => ({
  provider,
  model,
  currency,
  tiers,
  source,
});

// Doubao Seed 1.6 prices are tiered by prompt length (0-32k, 32k-128k, 128k-256k).
const seed16: Tier[] = [
  { maxPromptTokens: 32_000, input: 0.8, cachedInput: 0.16, output: 8 },
  { maxPromptTokens: 128_000, input: 1.2, cachedInput: 0.16, output: 16 },
  { maxPromptTokens: null, input: 2.4, cachedInput: 0.16, output: 24 },
];

export const PRICES: readonly PriceEntry[] = [
  e('ark', 'doubao-seed-1-6', 'CNY', seed16, ARK),
  e('ark', 'doubao-seed-1-6-thinking', 'CNY', seed16, ARK),
  e('ark', 'doubao-seed-1-6-flash', 'CNY', [
    { maxPromptTokens: 32_000, input: 0.15, cachedInput: 0.03, output: 1.5 },
    { maxPromptTokens: 128_000, input: 0.3, cachedInput: 0.03, output: 3 },
    { maxPromptTokens: null, input: 0.6, cachedInput: 0.03, output: 6 },
  ], ARK),
  e('ark', 'doubao-1-5-pro-32k', 'CNY', flat(0.8, 0.16, 2), ARK),
  e('ark', 'doubao-1-5-lite-32k', 'CNY', flat(0.3, 0.06, 0.6), ARK),
  e('openai', 'gpt-5', 'USD', flat(1.25, 0.125, 10), OPENAI),
  e('openai', 'gpt-5-mini', 'USD', flat(0.25, 0.025, 2), OPENAI),
  e('openai', 'gpt-5-nano', 'USD', flat(0.05, 0.005, 0.4), OPENAI),
  e('openai', 'gpt-4.1', 'USD', flat(2, 0.5, 8), OPENAI),
  e('openai', 'gpt-4.1-mini', 'USD', flat(0.4, 0.1, 1.6), OPENAI),
  e('openai', 'gpt-4o', 'USD', flat(2.5, 1.25, 10), OPENAI),
  e('openai', 'gpt-4o-mini', 'USD', flat(0.15, 0.075, 0.6), OPENAI),
  e('openai', 'o4-mini', 'USD', flat(1.1, 0.275, 4.4), OPENAI),
  e('anthropic', 'claude-sonnet-4-5', 'USD', flat(3, 0.3, 15), ANTHROPIC),
  e('anthropic', 'claude-sonnet-4', 'USD', flat(3, 0.3, 15), ANTHROPIC),
  e('anthropic', 'claude-haiku-4-5', 'USD', flat(1, 0.1, 5), ANTHROPIC),
  e('anthropic', 'claude-opus-4-1', 'USD', flat(15, 1.5, 75), ANTHROPIC),
  e('gemini', 'gemini-2.5-pro', 'USD', [
    { maxPromptTokens: 200_000, input: 1.25, cachedInput: 0.125, output: 10 },
    { maxPromptTokens: null, input: 2.5, cachedInput: 0.25, output: 15 },
  ], GEMINI),
  e('gemini', 'gemini-2.5-flash', 'USD', flat(0.3, 0.03, 2.5), GEMINI),
  e('gemini', 'gemini-2.5-flash-lite', 'USD', flat(0.1, 0.01, 0.4), GEMINI),
  e('deepseek', 'deepseek-chat', 'USD', flat(0.28, 0.028, 0.42), DEEPSEEK),
  e('deepseek', 'deepseek-reasoner', 'USD', flat(0.28, 0.028, 0.42), DEEPSEEK),
];

// Ark ids are written both `doubao-seed-1.6` and `doubao-seed-1-6-250615`; providers
// append dates or `-latest` to a family name. Only such suffixes may follow a listed id,
// so `gpt-4o` never prices `gpt-4o-mini`.
const normalize = (model: string) => model.toLowerCase().replace(/\./g, '-');
const VERSION_SUFFIX = /^(?:-\d{4}(?:-?\d{2}){0,2}|-\d{6}|-latest|-preview(?:-[\w-]+)?)?$/;

export function findPrice(provider: string, model: string): PriceEntry | null {
  const m = normalize(model.replace(/^models\//, ''));
  let best: PriceEntry | null = null;
  for (const entry of PRICES) {
    if (entry.provider !== provider) continue;
    const id = normalize(entry.model);
    if (m.startsWith(id) && VERSION_SUFFIX.test(m.slice(id.length))) {
      if (!best || id.length > normalize(best.model).length) best = entry;
    }
  }
  return best;
}

export function priceUsage(entry: PriceEntry, usage: Usage): Cost | null {
  const { promptTokens, completionTokens } = usage;
  if (promptTokens === null || completionTokens === null) return null;
  const tier = entry.tiers.find((t) => t.maxPromptTokens === null || promptTokens <= t.maxPromptTokens);
  if (!tier) return null;
  const cached = Math.min(usage.cachedTokens ?? 0, promptTokens);
  const amount = ((promptTokens - cached) * tier.input + cached * tier.cachedInput + completionTokens * tier.output) / 1e6;
  return { currency: entry.currency, amount, priceId: `${entry.provider}:${entry.model}` };
}

/**
 * The cost of one call. Local models (Ollama) cost nothing metered; the Ark Agent
 * Plan is a flat monthly subscription, so a call on it costs ¥0 on top of the plan.
 */
export function costOf(provider: string, model: string, baseUrl: string, usage: Usage): Cost | null {
  if (provider === 'ollama') return { currency: 'USD', amount: 0, priceId: 'ollama:local' };
  if (provider === 'ark' && /\/api\/plan\//.test(baseUrl)) return { currency: 'CNY', amount: 0, priceId: 'ark:agent-plan' };
  const entry = findPrice(provider, model);
  return entry ? priceUsage(entry, usage) : null;
}
