import type { ConfigEnv } from './env';

export const CELL_TIMEOUT_VAR = 'OPENAI4S_CELL_TIMEOUT_S';

/** Generous: a long fit or a download is fine; a cell stuck in a loop does not hold a run forever. */
export const DEFAULT_CELL_TIMEOUT_S = 30 * 60;

/**
 * The wall-clock limit of an agent cell, in ms: `OPENAI4S_CELL_TIMEOUT_S` (seconds, from
 * the environment or the data root's .env) when set, else the one chosen in Settings
 * (`stored`, seconds), else 30 minutes. The user extends a running cell from its view.
 */
export function resolveCellTimeoutMs(env: Pick<ConfigEnv, 'value'>, stored?: number | null): number {
  const raw = env.value(CELL_TIMEOUT_VAR)?.trim();
  if (!raw) return (typeof stored === 'number' && stored > 0 ? stored : DEFAULT_CELL_TIMEOUT_S) * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds <= 0 || seconds > 7 * 24 * 3600) {
    throw new Error(`${CELL_TIMEOUT_VAR}=${raw} is not a cell time limit. Give a positive number of seconds, at most 604800 (the default is ${DEFAULT_CELL_TIMEOUT_S}).`);
  }
  return Math.round(seconds * 1000);
}

/** Said when an agent cell hits the limit. */
export const CELL_LIMIT_HINT = `Raise the limit in Settings or with ${CELL_TIMEOUT_VAR} (seconds; the default is ${DEFAULT_CELL_TIMEOUT_S}), or extend a running cell from its view in the app. If the work is long, split it into smaller cells.`;
