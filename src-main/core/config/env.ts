import fs from 'node:fs';
import path from 'node:path';
import { parseDotenv } from './dotenv';

export type ValueSource = 'env' | 'dotenv';

export interface SourcedValue {
  value: string;
  source: ValueSource;
}

/**
 * The configuration environment: the real process environment layered over the
 * data root's `.env`. The real environment always wins; the `.env` only fills gaps.
 * Which layer supplied a value is inspectable through `get(...).source`.
 */
export interface ConfigEnv {
  get(name: string): SourcedValue | undefined;
  value(name: string): string | undefined;
  /** Problems found while reading `.env` (never its values). */
  readonly dotenvProblems: readonly string[];
  readonly dotenvPath: string;
}

export function loadConfigEnv(
  dataDir: string,
  processEnv: NodeJS.ProcessEnv = process.env,
): ConfigEnv {
  const dotenvPath = path.join(dataDir, '.env');
  let fileValues: Record<string, string> = {};
  let problems: string[] = [];
  try {
    const parsed = parseDotenv(fs.readFileSync(dotenvPath, 'utf8'));
    fileValues = parsed.values;
    problems = parsed.problems.map((p) => `${dotenvPath} ${p}`);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT') problems = [`${dotenvPath}: cannot read (${code ?? 'error'})`];
  }
  const get = (name: string): SourcedValue | undefined => {
    const real = processEnv[name];
    if (real !== undefined && real !== '') return { value: real, source: 'env' };
    const file = fileValues[name];
    if (file !== undefined && file !== '') return { value: file, source: 'dotenv' };
    return undefined;
  };
  return {
    get,
    value: (name) => get(name)?.value,
    dotenvProblems: problems,
    dotenvPath,
  };
}

/**
 * The same configuration with some variables replaced, for one session only (the in-app
 * demo points its provider and science endpoints at local replays). The overlay wins;
 * everything else reads through to the base.
 */
export function overlayEnv(base: ConfigEnv, overlay: Readonly<Record<string, string>>): ConfigEnv {
  const get = (name: string): SourcedValue | undefined =>
    Object.prototype.hasOwnProperty.call(overlay, name) ? { value: overlay[name]!, source: 'env' } : base.get(name);
  return { get, value: (name) => get(name)?.value, dotenvProblems: base.dotenvProblems, dotenvPath: base.dotenvPath };
}
