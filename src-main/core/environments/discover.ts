import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { EnvironmentKind } from '../../../src-preload/contract/environments';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { KERNEL_ENVS, chooseInterpreter, installHint, type KernelEnvDeclaration } from '../config/kernelEnvs';
import { execProbe } from '../shared/execProbe';
import { isExecutableFile } from '../shared/executables';
import { condaRoots, findConda } from './conda';

/** An interpreter the app could run a kernel in, before it is probed. */
export interface EnvCandidate {
  id: string;
  language: KernelLanguage;
  kind: EnvironmentKind;
  label: string;
  interpreter: string | null;
  /** The declaration its readiness is measured against. */
  declaration: KernelEnvDeclaration;
  /** Why there is no interpreter (declared environments only). */
  reason?: string;
  /** The exact command that installs what the declaration needs, on this platform. */
  installCommand?: string;
}

/** Written into every environment env_create builds: what it was built from. */
export const ENV_MARKER = 'openai4s-env.json';
export interface EnvMarker {
  declaration: string;
  base: string;
  kind: 'venv' | 'conda';
  createdAt: string;
}

export interface DiscoverOptions {
  declarations: KernelEnvDeclaration[];
  /** `<data root>/envs`: environments env_create built. */
  envsDir: string;
  processEnv: NodeJS.ProcessEnv;
  platform?: NodeJS.Platform;
  home?: string;
}

const BIN = (prefix: string, name: string, platform: NodeJS.Platform) => (platform === 'win32' ? path.join(prefix, name === 'python' ? 'python.exe' : 'Scripts', name) : path.join(prefix, 'bin', name));

function subdirs(dir: string): string[] {
  try {
    return fs
      .readdirSync(dir, { withFileTypes: true })
      .filter((d) => (d.isDirectory() || d.isSymbolicLink()) && !d.name.startsWith('.'))
      .map((d) => path.join(dir, d.name))
      .sort();
  } catch {
    // absent: nothing there
    return [];
  }
}

function readMarker(prefix: string): EnvMarker | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(prefix, ENV_MARKER), 'utf8')) as EnvMarker;
  } catch {
    // not one of ours
    return null;
  }
}

/** Conda/mamba prefixes: `conda env list --json` when conda is found, and the usual install folders. */
async function condaPrefixes(home: string, processEnv: NodeJS.ProcessEnv): Promise<string[]> {
  const prefixes = new Set<string>();
  for (const root of condaRoots(home)) {
    if (fs.existsSync(path.join(root, 'conda-meta'))) prefixes.add(root);
    for (const env of subdirs(path.join(root, 'envs'))) prefixes.add(env);
  }
  const tool = findConda(processEnv, home);
  if (tool) {
    const run = await execProbe(tool, ['env', 'list', '--json'], { env: processEnv, timeoutMs: 20_000 });
    try {
      if (run.ok) for (const env of (JSON.parse(run.stdout) as { envs?: string[] }).envs ?? []) prefixes.add(env);
    } catch {
      // unreadable answer: the usual folders above still count
    }
  }
  return [...prefixes].sort();
}

/** R installations beyond the declared ones: rig's /opt/R/<version>, the macOS framework versions. */
function extraRscripts(): string[] {
  const found = subdirs('/opt/R').map((d) => path.join(d, 'bin', 'Rscript'));
  found.push(...subdirs('/Library/Frameworks/R.framework/Versions').map((d) => path.join(d, 'Resources', 'bin', 'Rscript')));
  return found.filter(isExecutableFile);
}

/** The declared environments, each with the interpreter the supervisor would choose and this platform's install command. */
export function declaredCandidates(declarations: KernelEnvDeclaration[], processEnv: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): EnvCandidate[] {
  return declarations.map((decl) => {
    const env = KERNEL_ENVS[decl.language];
    const choice = chooseInterpreter(decl, env.overrideVar, env.command, processEnv, platform);
    const install = installHint(decl, platform);
    return { id: decl.id, language: decl.language, kind: 'declared', label: decl.id, interpreter: choice.path, declaration: decl, ...(choice.reason ? { reason: choice.reason } : {}), ...(install ? { installCommand: install } : {}) };
  });
}

/**
 * Every environment a kernel could run in: the declared ones (their interpreter chosen as
 * the supervisor chooses it), virtualenvs and conda environments env_create built under
 * `<data root>/envs`, conda/mamba environments, pyenv versions, other R installations.
 * An interpreter already listed under a declared environment is not listed again.
 */
export async function discoverEnvironments(opts: DiscoverOptions): Promise<EnvCandidate[]> {
  const platform = opts.platform ?? process.platform;
  const home = opts.home ?? os.homedir();
  const out: EnvCandidate[] = [];
  const seen = new Set<string>();
  const defaultDecl = (language: KernelLanguage) => opts.declarations.find((d) => d.id === KERNEL_ENVS[language].id) ?? opts.declarations.find((d) => d.language === language)!;
  const add = (c: EnvCandidate) => {
    if (c.interpreter && c.kind !== 'declared') {
      if (seen.has(c.interpreter)) return;
      seen.add(c.interpreter);
    }
    out.push(c);
  };
  for (const candidate of declaredCandidates(opts.declarations, opts.processEnv, platform)) {
    if (candidate.interpreter) seen.add(candidate.interpreter);
    add(candidate);
  }
  for (const prefix of subdirs(opts.envsDir)) {
    const marker = readMarker(prefix);
    const decl = opts.declarations.find((d) => d.id === marker?.declaration) ?? defaultDecl('python');
    const kind = marker?.kind ?? 'venv';
    const name = path.basename(prefix);
    const python = BIN(prefix, 'python', platform);
    if (isExecutableFile(python)) add({ id: `${kind}:${name}`, language: 'python', kind, label: `${name} (${kind} in the data root)`, interpreter: python, declaration: decl.language === 'python' ? decl : defaultDecl('python') });
    const rscript = BIN(prefix, 'Rscript', platform);
    if (isExecutableFile(rscript)) add({ id: `${kind}-r:${name}`, language: 'r', kind, label: `${name} (R, ${kind} in the data root)`, interpreter: rscript, declaration: decl.language === 'r' ? decl : defaultDecl('r') });
  }
  for (const prefix of await condaPrefixes(home, opts.processEnv)) {
    const name = fs.existsSync(path.join(prefix, 'envs')) && fs.existsSync(path.join(prefix, 'conda-meta')) ? 'base' : path.basename(prefix);
    const python = BIN(prefix, 'python', platform);
    if (isExecutableFile(python)) add({ id: `conda:${name}`, language: 'python', kind: 'conda', label: `${name} (conda, ${prefix})`, interpreter: python, declaration: defaultDecl('python') });
    const rscript = BIN(prefix, 'Rscript', platform);
    if (isExecutableFile(rscript)) add({ id: `conda-r:${name}`, language: 'r', kind: 'conda', label: `${name} (conda R, ${prefix})`, interpreter: rscript, declaration: defaultDecl('r') });
  }
  const pyenvRoot = opts.processEnv.PYENV_ROOT || path.join(home, '.pyenv');
  for (const version of subdirs(path.join(pyenvRoot, 'versions'))) {
    const python = [BIN(version, 'python3', platform), BIN(version, 'python', platform)].find(isExecutableFile);
    if (python) add({ id: `pyenv:${path.basename(version)}`, language: 'python', kind: 'pyenv', label: `pyenv ${path.basename(version)}`, interpreter: python, declaration: defaultDecl('python') });
  }
  for (const rscript of extraRscripts()) add({ id: `system-r:${rscript}`, language: 'r', kind: 'system', label: `R at ${path.dirname(path.dirname(rscript))}`, interpreter: rscript, declaration: defaultDecl('r') });
  return out;
}
