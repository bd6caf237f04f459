import type { Cost, Usage } from '../llm/types';

/**
 * One token and cost budget shared by every child of a session: each child's model calls
 * are charged to it, and once it is spent no child makes another call (the child ends as
 * `budget_exhausted`). A call is charged when it finishes; a call in flight when the budget
 * runs out completes, and the next one is refused.
 */
export class SharedBudget {
  private tokens = 0;
  private usd = 0;

  /** `spent`: what the session's children spent before (their runs in the ledger), so the budget outlives the app. */
  constructor(
    private readonly limits: { tokenBudget: number | null; costBudgetUsd: number | null },
    spent: { tokens: number; usd: number } = { tokens: 0, usd: 0 },
  ) {
    this.tokens = spent.tokens;
    this.usd = spent.usd;
  }

  charge(usage: Usage, cost: Cost | null): void {
    this.tokens += (usage.promptTokens ?? 0) + (usage.completionTokens ?? 0);
    if (cost?.currency === 'USD') this.usd += cost.amount;
  }

  /** Why no further call may be made, or null while the budget lasts. */
  exhausted(): string | null {
    const { tokenBudget, costBudgetUsd } = this.limits;
    if (tokenBudget !== null && this.tokens >= tokenBudget) {
      return `the session's delegation budget is spent (${this.tokens.toLocaleString('en-US')} of ${tokenBudget.toLocaleString('en-US')} tokens); raise OPENAI4S_DELEGATION_TOKEN_BUDGET to allow more`;
    }
    if (costBudgetUsd !== null && this.usd >= costBudgetUsd) {
      return `the session's delegation budget is spent (US$${this.usd.toFixed(4)} of US$${costBudgetUsd}); raise OPENAI4S_DELEGATION_COST_BUDGET_USD to allow more`;
    }
    return null;
  }
}
