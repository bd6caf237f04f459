import { execFile } from 'node:child_process';
import type { ArtifactEnvironment, PackageVersion } from '../../../src-preload/contract/artifacts';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { chooseInterpreter, readKernelEnv } from '../config/kernelEnvs';

/** The kernel generation that produced bytes, as the host call / cell result names it. */
export interface GenerationRef {
  generation: string;
  language: KernelLanguage;
}

/** Resolves the interpreter a generation of a language runs, or says why it cannot. */
export type InterpreterOf = (language: KernelLanguage) => { path: string | null; reason?: string; packages: string[] };

// Same declarations and override variables as the kernel supervisor uses to spawn.
const ENV_OF: Record<KernelLanguage, { id: string; overrideVar: string; command: string }> = {
  python: { id: 'python-default', overrideVar: 'OPENAI4S_PYTHON', command: 'python3' },
  r: { id: 'r-default', overrideVar: 'OPENAI4S_RSCRIPT', command: 'Rscript' },
};

/** The interpreter the supervisor would choose in this process (same envs/*.json and variables). */
export function supervisorInterpreters(processEnv: NodeJS.ProcessEnv): InterpreterOf {
  return (language) => {
    const decl = readKernelEnv(ENV_OF[language].id);
    const choice = chooseInterpreter(decl, ENV_OF[language].overrideVar, ENV_OF[language].command, processEnv);
    return choice.path ? { path: choice.path, packages: decl.packages } : { path: null, reason: choice.reason ?? 'no interpreter found', packages: decl.packages };
  };
}

const PY_PROBE = [
  'import sys, json',
  'from importlib import metadata',
  'out = {"version": "Python " + sys.version.split()[0], "packages": {}}',
  'for n in sys.argv[1:]:',
  '    try: out["packages"][n] = metadata.version(n)',
  '    except Exception: out["packages"][n] = None',
  'print(json.dumps(out))',
].join('\n');

// Base R only (no jsonlite needed to report whether jsonlite exists).
const R_PROBE = [
  'args <- commandArgs(TRUE)',
  'cat("R ", R.version$major, ".", R.version$minor, "\\n", sep = "")',
  'for (p in args) { v <- tryCatch(as.character(packageVersion(p)), error = function(e) ""); cat(p, "\\t", v, "\\n", sep = "") }',
].join('\n');

function run(file: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, args, { env, timeout: timeoutMs, maxBuffer: 1024 * 1024 }, (error, stdout, stderr) => {
      if (error) reject(new Error(`${file} ${error.killed ? 'timed out' : 'failed'}: ${String(stderr || error.message).trim().slice(0, 300)}`));
      else resolve(stdout);
    });
  });
}

/** Asks one interpreter for its version and the versions of `packages` (null when not installed). */
export async function probeInterpreter(
  language: KernelLanguage,
  interpreter: string,
  packages: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 20_000,
): Promise<{ interpreterVersion: string; packages: PackageVersion[] }> {
  if (language === 'python') {
    const out = JSON.parse(await run(interpreter, ['-I', '-c', PY_PROBE, ...packages], env, timeoutMs)) as { version: string; packages: Record<string, string | null> };
    return { interpreterVersion: out.version, packages: packages.map((name) => ({ name, version: out.packages[name] ?? null })) };
  }
  const lines = (await run(interpreter, ['--vanilla', '-e', R_PROBE, ...packages], env, timeoutMs)).split('\n');
  const versions = new Map(lines.slice(1).filter(Boolean).map((l) => l.split('\t') as [string, string]));
  return { interpreterVersion: lines[0]!.trim(), packages: packages.map((name) => ({ name, version: versions.get(name) || null })) };
}

/** Generations whose environment is kept; older ones are probed again if ever described. */
const MAX_GENERATIONS = 64;

/**
 * The environment of each generation, probed once per generation from that language's
 * interpreter (outside the sandbox, with the kernel's cleared environment: PATH and LANG
 * only). A generation is never described with another language's or process's list; when
 * the interpreter cannot be read, the record says why.
 */
export class GenerationEnvironments {
  private cache = new Map<string, Promise<ArtifactEnvironment>>();

  constructor(
    private readonly interpreterOf: InterpreterOf,
    private readonly probeEnv: NodeJS.ProcessEnv = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
  ) {}

  describe(ref: GenerationRef): Promise<ArtifactEnvironment> {
    const key = `${ref.language}:${ref.generation}`;
    let p = this.cache.get(key);
    if (!p) {
      p = this.probe(ref.language);
      this.cache.set(key, p);
      // Kernel generations come and go for the life of the app: only the latest are kept (a
      // generation described again after that is probed again, with the same result).
      if (this.cache.size > MAX_GENERATIONS) this.cache.delete(this.cache.keys().next().value!);
    }
    return p;
  }

  /** Generations described and kept (diagnostics and tests). */
  get size(): number {
    return this.cache.size;
  }

  private async probe(language: KernelLanguage): Promise<ArtifactEnvironment> {
    let interp: ReturnType<InterpreterOf>;
    try {
      interp = this.interpreterOf(language);
    } catch (error) {
      return { status: 'missing', language, reason: `the ${language} environment declaration could not be read: ${(error as Error).message}` };
    }
    if (!interp.path) return { status: 'missing', language, reason: `no ${language} interpreter: ${interp.reason ?? 'unknown'}` };
    try {
      const probed = await probeInterpreter(language, interp.path, interp.packages, this.probeEnv);
      return { status: 'recorded', language, interpreter: interp.path, ...probed };
    } catch (error) {
      return { status: 'missing', language, reason: `could not read the ${language} environment from ${interp.path}: ${(error as Error).message}` };
    }
  }
}
