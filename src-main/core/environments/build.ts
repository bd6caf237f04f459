import fs from 'node:fs';
import path from 'node:path';
import { KERNEL_ENVS, chooseInterpreter, type KernelEnvDeclaration } from '../config/kernelEnvs';
import { errorMessage } from '../shared/errorMessage';
import { execProbe, lastLine } from '../shared/execProbe';
import { ENV_MARKER, type EnvMarker } from './discover';
import type { ProbeCache } from './probeCache';
import type { EnvProbe } from './probe';

export interface BuildRequest {
  name: string;
  declaration: KernelEnvDeclaration;
  kind: 'venv' | 'conda';
  /** Extra packages to install besides what the declaration lacks. */
  packages: string[];
  envsDir: string;
  processEnv: NodeJS.ProcessEnv;
  probes: ProbeCache;
  /** The conda (or mamba) executable, when one was found. */
  conda: string | null;
}

export type BuildResult =
  | { ok: true; id: string; prefix: string; interpreter: string; probe: EnvProbe }
  | { ok: false; step: string; detail: string };

type Failed = Extract<BuildResult, { ok: false }>;
const fail = (step: string, detail: string): Failed => ({ ok: false, step, detail });

/** pip reads its index, proxy and offline settings from PIP_* variables; nothing else of the app's environment reaches it. */
function toolEnv(processEnv: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const keep = Object.entries(processEnv).filter(([k]) => /^(PIP_|CONDA_|MAMBA_|HTTPS?_PROXY$|NO_PROXY$|https?_proxy$|no_proxy$|HOME$|PATH$|LANG$|TMPDIR$)/.test(k));
  return { LANG: 'C.UTF-8', ...Object.fromEntries(keep) };
}

/** conda-forge/bioconda package names from the declaration's conda command (what follows its flags). */
export function condaPackages(decl: KernelEnvDeclaration): { channels: string[]; packages: string[] } {
  const words = (decl.install?.conda ?? '').split(/\s+/).filter(Boolean);
  const channels: string[] = [];
  const packages: string[] = [];
  for (let i = words.indexOf('create') >= 0 ? words.indexOf('create') + 1 : words.indexOf('install') + 1; i > 0 && i < words.length; i++) {
    const word = words[i]!;
    if (word === '-c' || word === '--channel') channels.push(words[++i] ?? '');
    else if (word === '-n' || word === '--name' || word === '-p') i++;
    else if (!word.startsWith('-')) packages.push(word);
  }
  return { channels: channels.filter(Boolean), packages };
}

/**
 * Builds an environment host-side (never in a kernel) at `<envsDir>/<name>`, step by
 * step: a virtualenv with `--system-site-packages` over the declaration's interpreter
 * (offline: it sees the system's packages; pip runs only for what is still missing or
 * asked for), or a conda environment from the declaration's conda packages. On any
 * failure the half-built folder is removed and the failing step is named.
 */
export async function buildEnvironment(req: BuildRequest): Promise<BuildResult> {
  const prefix = path.join(req.envsDir, req.name);
  // The service checked the name; this keeps any other caller from building outside envs/.
  if (path.dirname(path.resolve(prefix)) !== path.resolve(req.envsDir) || req.name !== path.basename(prefix)) return fail('check the name', `"${req.name}" is not a plain folder name; choose a name such as "rdkit-2024".`);
  if (fs.existsSync(prefix)) return fail('check the name', `${prefix} already exists; choose another name or use the existing environment (venv:${req.name}).`);
  fs.mkdirSync(req.envsDir, { recursive: true });
  const env = toolEnv(req.processEnv);
  const result = req.kind === 'venv' ? await buildVenv(req, prefix, env) : await buildConda(req, prefix, env);
  if (!result.ok) {
    fs.rmSync(prefix, { recursive: true, force: true });
    return result;
  }
  const marker: EnvMarker = { declaration: req.declaration.id, base: result.base, kind: req.kind, createdAt: new Date().toISOString() };
  try {
    fs.writeFileSync(path.join(prefix, ENV_MARKER), `${JSON.stringify(marker, null, 2)}\n`);
  } catch (error) {
    fs.rmSync(prefix, { recursive: true, force: true });
    return fail('record the environment', errorMessage(error));
  }
  req.probes.forget(result.interpreter);
  return { ok: true, id: `${req.kind}:${req.name}`, prefix, interpreter: result.interpreter, probe: result.probe };
}

type Built = { ok: true; base: string; interpreter: string; probe: EnvProbe } | Failed;

async function buildVenv(req: BuildRequest, prefix: string, env: NodeJS.ProcessEnv): Promise<Built> {
  const decl = req.declaration;
  if (decl.language !== 'python') return fail('choose the kind', `A virtualenv is Python only; ${decl.id} is an R declaration. Build it with conda (kind "conda"), or install it with: ${decl.install?.apt ?? decl.install?.conda ?? 'its install command'}.`);
  const known = KERNEL_ENVS.python;
  const base = chooseInterpreter(decl, known.overrideVar, known.command, req.processEnv);
  if (!base.path) return fail('resolve the base interpreter', base.reason ?? `no interpreter declared for ${decl.id}`);
  // Without its own pip: quick, and the base's pip (a system package) is seen through the system site-packages.
  const created = await execProbe(base.path, ['-m', 'venv', '--system-site-packages', '--without-pip', prefix], { env, timeoutMs: 120_000 });
  if (!created.ok) return fail('create the virtualenv', `${created.reason}${/ensurepip|venv/.test(created.stderr) ? ' (on Debian/Ubuntu: apt-get install python3-venv)' : ''}`);
  const python = path.join(prefix, 'bin', 'python');
  const before = await req.probes.probe('python', python, decl.packages, decl.distributions ?? {});
  if (!before.ok) return fail('probe the new virtualenv', before.reason);
  const lacking = decl.packages.filter((p) => before.packages[p] == null).map((p) => decl.distributions?.[p] ?? p);
  const wanted = [...new Set([...lacking, ...req.packages])];
  if (wanted.length) {
    if (!(await execProbe(python, ['-m', 'pip', '--version'], { env, timeoutMs: 60_000 })).ok) {
      const ensured = await execProbe(python, ['-m', 'ensurepip', '--default-pip'], { env, timeoutMs: 5 * 60_000 });
      if (!ensured.ok) return fail('install pip', `${ensured.reason} (on Debian/Ubuntu: apt-get install python3-pip python3-venv)`);
    }
    // "--": whatever follows is a requirement, never an option (--target, -r FILE), even if a check upstream missed one.
    const pip = await execProbe(python, ['-m', 'pip', 'install', '--no-input', '--disable-pip-version-check', '--retries', '0', '--timeout', '20', '--', ...wanted], { env, timeoutMs: 15 * 60_000 });
    if (!pip.ok) return fail('install packages', `pip install ${wanted.join(' ')} failed: ${lastLine(pip.stderr) || pip.reason}`);
    req.probes.forget(python);
  }
  return probeComplete(req, python, base.path);
}

async function buildConda(req: BuildRequest, prefix: string, env: NodeJS.ProcessEnv): Promise<Built> {
  const decl = req.declaration;
  if (!req.conda) return fail('find conda', `No conda or mamba found (PATH, CONDA_EXE, ~/miniforge3). Install Miniforge, or build a virtualenv (kind "venv"), or install ${decl.id} with: ${decl.install?.apt ?? decl.install?.conda ?? 'its install command'}.`);
  const { channels, packages } = condaPackages(decl);
  if (!packages.length) return fail('read the declaration', `${decl.id} has no conda packages (its "install.conda" command).`);
  const args = ['create', '-y', '-p', prefix, ...channels.flatMap((c) => ['-c', c]), ...packages, ...req.packages];
  const created = await execProbe(req.conda, args, { env, timeoutMs: 30 * 60_000 });
  if (!created.ok) return fail('create the conda environment', `${path.basename(req.conda)} ${args.join(' ')} failed: ${lastLine(created.stderr) || created.reason}`);
  const interpreter = path.join(prefix, 'bin', decl.language === 'python' ? 'python' : 'Rscript');
  return probeComplete(req, interpreter, req.conda);
}

/** The last step: the new environment runs and has every declared package. */
async function probeComplete(req: BuildRequest, interpreter: string, base: string): Promise<Built> {
  const decl = req.declaration;
  const probe = await req.probes.probe(decl.language, interpreter, decl.packages, decl.distributions ?? {});
  if (!probe.ok) return fail('probe the environment', probe.reason);
  const missing = decl.packages.filter((p) => probe.packages[p] == null);
  if (missing.length) return fail('probe the environment', `still missing ${missing.join(', ')}${Object.keys(probe.reasons).length ? ` (${Object.values(probe.reasons)[0]})` : ''}`);
  return { ok: true, base, interpreter, probe };
}
