import { z } from 'zod';
import { route } from './define';
import type { KernelLanguage } from './kernel';

/**
 * Scientific environments (issue 18): the interpreters a session's kernels can run in,
 * what each has of its declaration (envs/*.json), the session's current one per language,
 * and every change as an append-only history.
 */

/** Where an environment comes from: a declaration in envs/, one env_create built, or one found on the machine. */
export type EnvironmentKind = 'declared' | 'venv' | 'conda' | 'pyenv' | 'system';

export interface EnvironmentPackage {
  name: string;
  /** null: missing in this environment. */
  version: string | null;
}

export interface EnvironmentView {
  /** `python-science`, `venv:<name>`, `conda:<name>`, `pyenv:<version>`, ... */
  id: string;
  language: KernelLanguage;
  kind: EnvironmentKind;
  label: string;
  interpreter: string | null;
  /** The interpreter's version ("3.11.2"), when it could be run. */
  version: string | null;
  /** The declaration readiness is measured against (`python-default`, `python-science`, ...). */
  declaration: string;
  /** Every declared package of the language, with its version here. */
  packages: EnvironmentPackage[];
  /** Packages of `declaration` this environment lacks. */
  missing: string[];
  /** An interpreter that runs and has every package of its declaration. */
  ready: boolean;
  /** Why it is not usable, when it is not (no interpreter, probe failed). */
  reason?: string;
  /** The exact command that installs the declaration on this platform (declared environments). */
  installCommand?: string;
}

export interface EnvironmentChange {
  seq: number;
  language: KernelLanguage;
  action: 'use' | 'create' | 'rollback';
  status: 'applied' | 'failed';
  environmentId: string;
  interpreter: string | null;
  previousEnvironmentId: string | null;
  /** The step a failed change stopped at; null when applied. */
  failedStep: string | null;
  detail: string | null;
  at: string;
}

export interface CurrentEnvironment {
  environmentId: string;
  interpreter: string | null;
  /** True when the session never chose one: the language's default declaration. */
  isDefault: boolean;
}

export interface EnvironmentList {
  sessionId: string | null;
  environments: EnvironmentView[];
  current: Record<KernelLanguage, CurrentEnvironment>;
  history: EnvironmentChange[];
}

/** What env.use, env.create and env.rollback answer: the change recorded and the session's state after it. */
export interface EnvironmentChangeResult {
  change: EnvironmentChange;
  current: Record<KernelLanguage, CurrentEnvironment>;
  /** The kernel generation that was ended so the next cell starts in the new environment (null: none was running). */
  endedGeneration: string | null;
}

const sessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id is 1-128 letters, digits, "_" or "-"');
const language = z.enum(['python', 'r']);
export const ENV_ID = /^[A-Za-z0-9._:/@+-]{1,300}$/;
/** A plain folder name under envs/: never a path, never "..", so a build cannot land outside the data folder. */
export const ENV_NAME = /^(?!.*\.\.)[a-z0-9][a-z0-9._-]{0,63}$/;
export const ENV_NAME_RULE = '1-64 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit and without ".." (e.g. "rdkit-2024")';
/**
 * One requirement for pip or conda: an optional conda channel ("bioconda::"), a name,
 * optional [extras] and version bounds. It starts with a letter or digit and has no
 * space, slash or "@", so it is never an option (--target, -r) nor a path or URL.
 */
export const PACKAGE_SPEC = /^(?:[A-Za-z0-9][A-Za-z0-9._-]*::)?[A-Za-z0-9][A-Za-z0-9._-]*(?:\[[A-Za-z0-9._,-]+\])?(?:[<>=!~][A-Za-z0-9.*+!_<>=~,-]*)?$/;
export const PACKAGE_SPEC_RULE = 'a package name with optional [extras] and version bounds, e.g. "six" or "numpy>=1.26" (never an option such as --target or -r, a path or a URL)';
const envId = z.string().regex(ENV_ID, 'an environment id as env.list shows it, e.g. "python-science" or "venv:rdkit"');

export const environmentRoutes = {
  'env.list': route<EnvironmentList>()(z.object({ sessionId: sessionId.optional(), refresh: z.boolean().optional() }).strict().default({})),
  'env.use': route<EnvironmentChangeResult>()(z.object({ sessionId, environmentId: envId }).strict()),
  'env.create': route<EnvironmentChangeResult>()(
    z
      .object({
        sessionId,
        name: z.string().regex(ENV_NAME, `a name is ${ENV_NAME_RULE}`),
        declaration: z.string().regex(/^[a-z0-9-]{1,64}$/, 'a declaration id from envs/, e.g. "python-science"'),
        kind: z.enum(['venv', 'conda']).optional(),
        packages: z.array(z.string().max(100).regex(PACKAGE_SPEC, PACKAGE_SPEC_RULE)).max(50).optional(),
      })
      .strict(),
  ),
  'env.rollback': route<EnvironmentChangeResult>()(z.object({ sessionId, language }).strict()),
};
