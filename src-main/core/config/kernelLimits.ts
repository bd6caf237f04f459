import fs from 'node:fs';
import path from 'node:path';
import { appRoot } from './appPaths';
import type { SourcedValue } from './env';
import { errorMessage } from '../shared/errorMessage';

/** Resource limits for one kernel; 0 means no limit. */
export interface KernelLimits {
  /** Processes and threads in the sandbox (RLIMIT_NPROC inside its user namespace, cgroup pids.max). */
  processes: number;
  /** Address space of each process (RLIMIT_AS) and the kernel's total memory (cgroup) in MiB. */
  memoryMiB: number;
  /** Largest file a cell may write (RLIMIT_FSIZE), MiB. */
  fileSizeMiB: number;
  /** Open files per process (RLIMIT_NOFILE). */
  openFiles: number;
  /** Size of the private /tmp and of /dev/shm (each), MiB. */
  tmpMiB: number;
}

export const LIMIT_NAMES: readonly (keyof KernelLimits)[] = ['processes', 'memoryMiB', 'fileSizeMiB', 'openFiles', 'tmpMiB'];

export type LimitSource = 'default' | 'env' | 'dotenv';

export interface ResolvedKernelLimits {
  values: KernelLimits;
  sources: Record<keyof KernelLimits, LimitSource>;
  /** The variable that overrides each limit. */
  variables: Record<keyof KernelLimits, string>;
}

/** Below these a kernel cannot even start its interpreter: a clear error instead of a crash loop. */
const MINIMUM: KernelLimits = { processes: 8, memoryMiB: 256, fileSizeMiB: 1, openFiles: 64, tmpMiB: 16 };

function file(root: string): string {
  return path.join(root, 'envs', 'limits.json');
}

/** Reads `envs/limits.json`: the defaults and the name of the variable overriding each. */
export function readLimitDefaults(root = appRoot()): { values: KernelLimits; variables: Record<keyof KernelLimits, string> } {
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(fs.readFileSync(file(root), 'utf8')) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`Cannot read the kernel limits ${file(root)}: ${errorMessage(error)}`);
  }
  const values = {} as KernelLimits;
  const variables = (parsed.variables ?? {}) as Record<keyof KernelLimits, string>;
  for (const name of LIMIT_NAMES) {
    const v = parsed[name];
    if (typeof v !== 'number' || !Number.isInteger(v) || v < 0) throw new Error(`${file(root)}: "${name}" must be a whole number (0 for no limit).`);
    if (typeof variables[name] !== 'string') throw new Error(`${file(root)}: "variables.${name}" must name the variable that overrides it.`);
    values[name] = v;
  }
  return { values, variables };
}

/**
 * The limits in force: `envs/limits.json`, each overridden by its variable from the
 * environment or the data root's `.env` (the config environment's usual layering).
 */
export function resolveKernelLimits(lookup: (name: string) => SourcedValue | undefined, root = appRoot()): ResolvedKernelLimits {
  const { values, variables } = readLimitDefaults(root);
  const sources = {} as Record<keyof KernelLimits, LimitSource>;
  for (const name of LIMIT_NAMES) {
    sources[name] = 'default';
    const got = lookup(variables[name]);
    if (!got) continue;
    const raw = got.value.trim();
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || !Number.isSafeInteger(n)) {
      throw new Error(`${variables[name]}=${raw} is not a whole number. Set it to a number (0 for no limit) or unset it.`);
    }
    if (n !== 0 && n < MINIMUM[name]) {
      throw new Error(`${variables[name]}=${raw} is too small for a kernel to start (at least ${MINIMUM[name]}, or 0 for no limit).`);
    }
    values[name] = n;
    sources[name] = got.source;
  }
  return { values, sources, variables };
}

/** The same from a plain process environment (tests, and callers without a config env). */
export function kernelLimitsFromEnv(processEnv: NodeJS.ProcessEnv, root = appRoot()): ResolvedKernelLimits {
  return resolveKernelLimits((name) => {
    const value = processEnv[name];
    return value ? { value, source: 'env' } : undefined;
  }, root);
}
