import type { ArtifactEnvironment, PackageVersion } from '../../../src-preload/contract/artifacts';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { probeInterpreter } from '../config/interpreterProbe';
import { KERNEL_ENVS, kernelInterpreter } from '../config/kernelEnvs';
import { errorMessage } from '../shared/errorMessage';

/** The kernel generation that produced bytes, as the host call / cell result names it. */
export interface GenerationRef {
  generation: string;
  language: KernelLanguage;
}

/** Resolves the interpreter a generation of a language runs, or says why it cannot. */
export type InterpreterOf = (language: KernelLanguage) => { path: string | null; reason?: string; packages: string[] };

/** The environment a generation was started in (the session's choice, issue 18), or null when not recorded. */
export type GenerationEnvironmentOf = (generation: string) => { id: string; interpreter: string; packages: string[] } | null;

/** The interpreter a kernel of each language runs in this process (same envs/*.json and variables as the supervisor). */
export function supervisorInterpreters(processEnv: NodeJS.ProcessEnv): InterpreterOf {
  return (language) => {
    const { decl, choice } = kernelInterpreter(language, processEnv);
    return choice.path ? { path: choice.path, packages: decl.packages } : { path: null, reason: choice.reason ?? 'no interpreter found', packages: decl.packages };
  };
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
    /** When it knows the generation's environment, that interpreter is probed and the record names it. */
    private readonly generationEnvironment: GenerationEnvironmentOf = () => null,
  ) {}

  describe(ref: GenerationRef): Promise<ArtifactEnvironment> {
    const key = `${ref.language}:${ref.generation}`;
    let p = this.cache.get(key);
    if (!p) {
      p = this.probe(ref);
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

  private async probe(ref: GenerationRef): Promise<ArtifactEnvironment> {
    const { language } = ref;
    let interp: ReturnType<InterpreterOf> & { environment?: string };
    try {
      const chosen = this.generationEnvironment(ref.generation);
      interp = chosen ? { path: chosen.interpreter, packages: chosen.packages, environment: chosen.id } : this.interpreterOf(language);
    } catch (error) {
      return { status: 'missing', language, reason: `the ${language} environment declaration could not be read: ${errorMessage(error)}` };
    }
    if (!interp.path) return { status: 'missing', language, reason: `no ${language} interpreter: ${interp.reason ?? 'unknown'}` };
    const probed = await probeInterpreter(language, interp.path, interp.packages, { env: this.probeEnv });
    if (!probed.ok) return { status: 'missing', language, reason: `could not read the ${language} environment from ${interp.path}: ${probed.reason}` };
    const packages: PackageVersion[] = interp.packages.map((name) => ({ name, version: probed.packages[name] ?? null }));
    return { status: 'recorded', language, ...(interp.environment ? { environment: interp.environment } : {}), interpreter: interp.path, interpreterVersion: `${KERNEL_ENVS[language].label} ${probed.version}`, packages };
  }
}
