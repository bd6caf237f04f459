import type { Cost, Usage } from '../llm/types';

export const emptyUsage = (): Usage => ({
  promptTokens: null,
  completionTokens: null,
  reasoningTokens: null,
  cachedTokens: null,
});

const add = (a: number | null, b: number | null) => (a === null && b === null ? null : (a ?? 0) + (b ?? 0));

/** Sums token counts; a count stays null only while no call reported it. */
export function addUsage(a: Usage, b: Usage): Usage {
  return {
    promptTokens: add(a.promptTokens, b.promptTokens),
    completionTokens: add(a.completionTokens, b.completionTokens),
    reasoningTokens: add(a.reasoningTokens, b.reasoningTokens),
    cachedTokens: add(a.cachedTokens, b.cachedTokens),
  };
}

/** Sums costs of one currency; a call without a price makes the total unknown (null). */
export function addCost(total: Cost | null | undefined, next: Cost | null, first: boolean): Cost | null {
  if (first) return next;
  if (!total || !next || total.currency !== next.currency) return null;
  return { currency: total.currency, amount: total.amount + next.amount, priceId: total.priceId };
}
