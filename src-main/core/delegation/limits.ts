import type { DelegationLimitName } from '../capabilities/delegationPort';

/** The hard limits of the design seed (delegation section) and the pool and budget defaults. */
export interface DelegationLimits {
  /** Children one parent may start, over its whole run (the 49th is refused). */
  fanOut: number;
  /** Children one session may start, ever (the 1,001st is refused). */
  perSession: number;
  /** The deepest child; a child at this depth cannot delegate. */
  maxDepth: number;
  /** Children of one session running at the same time; the others wait their turn. */
  concurrency: number;
  /** Tokens (input + output) all children of a session may spend together; null: no limit. */
  tokenBudget: number | null;
  /** US dollars all children of a session may spend together (priced calls only); null: no limit. */
  costBudgetUsd: number | null;
  /** Model turns a child gets before it ends without an answer. */
  maxTurns: number;
}

export const DEFAULT_LIMITS: DelegationLimits = {
  fanOut: 48,
  perSession: 1_000,
  maxDepth: 4,
  concurrency: 4,
  tokenBudget: 2_000_000,
  costBudgetUsd: null,
  maxTurns: 24,
};

/** The variables that change the configurable limits (environment or the data root's .env). */
export const DELEGATION_VARS = {
  concurrency: 'OPENAI4S_DELEGATION_CONCURRENCY',
  tokenBudget: 'OPENAI4S_DELEGATION_TOKEN_BUDGET',
  costBudgetUsd: 'OPENAI4S_DELEGATION_COST_BUDGET_USD',
} as const;

function positive(name: string, raw: string | undefined, integer: boolean): number | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const value = Number(raw);
  if (!Number.isFinite(value) || value <= 0 || (integer && !Number.isInteger(value))) {
    throw new Error(`${name}=${raw} is not a positive ${integer ? 'whole ' : ''}number; set it to one (or remove it for the default).`);
  }
  return value;
}

/** The configurable limits from the environment; the seed's caps are not configurable. */
export function limitsFromEnv(value: (name: string) => string | undefined): Partial<DelegationLimits> {
  const concurrency = positive(DELEGATION_VARS.concurrency, value(DELEGATION_VARS.concurrency), true);
  const tokenBudget = positive(DELEGATION_VARS.tokenBudget, value(DELEGATION_VARS.tokenBudget), true);
  const costBudgetUsd = positive(DELEGATION_VARS.costBudgetUsd, value(DELEGATION_VARS.costBudgetUsd), false);
  return {
    ...(concurrency !== undefined ? { concurrency } : {}),
    ...(tokenBudget !== undefined ? { tokenBudget } : {}),
    ...(costBudgetUsd !== undefined ? { costBudgetUsd } : {}),
  };
}

/** A request refused by a named limit; the message says which and what to do instead. */
export class DelegationRefusedError extends Error {
  constructor(
    readonly limit: DelegationLimitName,
    message: string,
  ) {
    super(`refused (${limit}): ${message}`);
    this.name = 'DelegationRefusedError';
  }
}
