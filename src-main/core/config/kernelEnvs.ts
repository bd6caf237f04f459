import fs from 'node:fs';
import path from 'node:path';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { appRoot } from './appPaths';
import { errorMessage } from '../shared/errorMessage';
import { findOnPath, isExecutableFile } from '../shared/executables';

export interface KernelEnvDeclaration {
  id: string;
  language: 'python' | 'r';
  description: string;
  interpreters: Partial<Record<NodeJS.Platform, string[]>>;
  /** What cells import (Python module names, R package names): probed for presence and version. */
  packages: string[];
  /** A Python module's distribution name when it differs (sklearn -> scikit-learn): pip installs and metadata use it. */
  distributions?: Record<string, string>;
  /** Install commands by package manager: apt, brew, conda (conda-forge/bioconda), pip, cran, and wsl for Windows. */
  install?: Partial<Record<'apt' | 'brew' | 'conda' | 'pip' | 'cran' | 'wsl', string>>;
}

/**
 * The install command for this platform: apt on Linux, Homebrew on macOS (else conda,
 * where the science stack lives), WSL2 on Windows (the kernels run there); conda last.
 */
export function installHint(decl: KernelEnvDeclaration, platform: NodeJS.Platform = process.platform): string | undefined {
  const install = decl.install ?? {};
  const native = platform === 'linux' ? install.apt : platform === 'darwin' ? (install.brew ?? install.conda ?? install.cran) : platform === 'win32' ? install.wsl : undefined;
  return native ?? install.conda;
}

/** Every environment declared in `envs/` (limits.json is not one), sorted by id; an unreadable file throws naming it. */
export function listKernelEnvs(root = appRoot()): KernelEnvDeclaration[] {
  const dir = path.join(root, 'envs');
  return fs
    .readdirSync(dir)
    .filter((name) => name.endsWith('.json') && name !== 'limits.json')
    .map((name) => readKernelEnv(name.slice(0, -'.json'.length), root))
    .sort((a, b) => a.id.localeCompare(b.id));
}

/** Reads `envs/<id>.json`; a missing or malformed declaration is a clear error naming the file. */
export function readKernelEnv(id: string, root = appRoot()): KernelEnvDeclaration {
  const file = path.join(root, 'envs', `${id}.json`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(fs.readFileSync(file, 'utf8'));
  } catch (error) {
    throw new Error(`Cannot read the kernel environment ${file}: ${errorMessage(error)}`);
  }
  const decl = parsed as KernelEnvDeclaration;
  if (!decl || typeof decl !== 'object' || typeof decl.interpreters !== 'object') {
    throw new Error(`The kernel environment ${file} has no "interpreters" map.`);
  }
  return decl;
}

export interface InterpreterChoice {
  path: string | null;
  source: 'env' | 'declared' | 'discovered' | 'none';
  reason?: string;
}

/**
 * Chooses an interpreter deliberately: the override variable, else the first declared
 * interpreter for this platform that exists (on Debian `/usr/bin/python3`, which has
 * the science stack), else the first `<name>` on PATH, marked as discovered.
 */
export function chooseInterpreter(
  decl: KernelEnvDeclaration,
  overrideVar: string,
  commandName: string,
  processEnv: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): InterpreterChoice {
  const override = processEnv[overrideVar]?.trim();
  if (override) {
    const resolved = override.includes(path.sep) ? path.resolve(override) : findOnPath(override, processEnv);
    if (resolved && isExecutableFile(resolved)) return { path: resolved, source: 'env' };
    return {
      path: null,
      source: 'env',
      reason: `${overrideVar}=${override} is not an executable file. Fix or unset ${overrideVar}.`,
    };
  }
  for (const candidate of decl.interpreters[platform] ?? []) {
    if (isExecutableFile(candidate)) return { path: candidate, source: 'declared' };
  }
  const found = findOnPath(commandName, processEnv);
  if (found) return { path: found, source: 'discovered' };
  return {
    path: null,
    source: 'none',
    reason: `No ${commandName} found (looked at ${(decl.interpreters[platform] ?? []).join(', ') || 'nothing declared'} and PATH). Install it or set ${overrideVar}.`,
  };
}

/**
 * Each language's kernel environment: its declaration (`envs/<id>.json`), the variable that
 * overrides the interpreter, the command looked up on PATH, and its name for the user. The
 * supervisor spawns what this chooses; the doctor and artifact provenance describe the same.
 */
export const KERNEL_ENVS: Record<KernelLanguage, { id: string; overrideVar: string; command: string; label: string }> = {
  python: { id: 'python-default', overrideVar: 'OPENAI4S_PYTHON', command: 'python3', label: 'Python' },
  r: { id: 'r-default', overrideVar: 'OPENAI4S_RSCRIPT', command: 'Rscript', label: 'R' },
};

/** The declaration of a language's kernel environment and the interpreter a kernel of it runs (throws when the declaration cannot be read). */
export function kernelInterpreter(
  language: KernelLanguage,
  processEnv: NodeJS.ProcessEnv = process.env,
): { decl: KernelEnvDeclaration; choice: InterpreterChoice } {
  const env = KERNEL_ENVS[language];
  const decl = readKernelEnv(env.id);
  return { decl, choice: chooseInterpreter(decl, env.overrideVar, env.command, processEnv) };
}
