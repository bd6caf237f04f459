import type { SafetyLayerReport, SafetyReport } from '../../../src-preload/contract/doctor';
import type { ConfigEnv } from '../config/env';
import { kernelInterpreter } from '../config/kernelEnvs';
import { errorMessage } from '../shared/errorMessage';

/**
 * The posture of the two safety layers of issue 27: biosecurity screening (trajectory and
 * sequence checks) and the pre-execution review of cells. Both are on unless a variable
 * turns them off explicitly; an unreadable value keeps the layer on and says so.
 */
export const BIOSECURITY_VAR = 'OPENAI4S_BIOSECURITY';
export const CELL_REVIEW_VAR = 'OPENAI4S_CELL_REVIEW';

const OFF = new Set(['off', '0', 'false', 'no', 'disabled']);
const ON = new Set(['on', '1', 'true', 'yes', 'enabled', '']);

export function layerPosture(env: Pick<ConfigEnv, 'get'>, variable: string, what: string): SafetyLayerReport {
  const set = env.get(variable);
  if (!set) return { on: true, source: 'default', variable, setting: 'default', summary: `${what}: on (default)` };
  const value = set.value.trim().toLowerCase();
  const where = set.source === 'env' ? 'the environment' : 'the data root .env';
  const base = { source: set.source, variable, value: set.value };
  if (OFF.has(value)) return { ...base, on: false, setting: 'off', summary: `${what}: OFF (${variable}=${set.value} in ${where}); remove it to turn the layer back on` };
  if (ON.has(value)) return { ...base, on: true, setting: 'on', summary: `${what}: on (${variable}=${set.value} in ${where})` };
  return { ...base, on: true, setting: 'unrecognised', summary: `${what}: on (${variable}=${JSON.stringify(set.value)} in ${where} is not "off", so the layer stays on)` };
}

export function safetyPosture(env: Pick<ConfigEnv, 'get'>): SafetyReport {
  return {
    biosecurity: layerPosture(env, BIOSECURITY_VAR, 'Biosecurity screening'),
    cellReview: layerPosture(env, CELL_REVIEW_VAR, 'Pre-execution review of cells'),
  };
}

/** The interpreter the ast reviewer runs with (the kernel's python, the app's choice), or why the token scan reviews alone. */
export function reviewerInterpreter(processEnv: NodeJS.ProcessEnv): { path: string | null; why: string } {
  try {
    const { choice } = kernelInterpreter('python', processEnv);
    return choice.path ? { path: choice.path, why: `Python cells through ast (${choice.path}); R cells through the token scan` } : { path: null, why: `token scan only: ${choice.reason}` };
  } catch (error) {
    return { path: null, why: `token scan only: the Python declaration cannot be read (${errorMessage(error)})` };
  }
}

/** Both layers' posture with what reviews the cells: what doctor and the System page show. */
export function safetyReport(env: Pick<ConfigEnv, 'get'>, processEnv: NodeJS.ProcessEnv): SafetyReport {
  const posture = safetyPosture(env);
  const reviewer = reviewerInterpreter(processEnv);
  return { ...posture, cellReview: { ...posture.cellReview, reviewer: reviewer.why, reviewerPath: reviewer.path } };
}
