import type { EnvironmentPackage, EnvironmentView } from '../../../src-preload/contract/environments';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import type { KernelEnvDeclaration } from '../config/kernelEnvs';
import { discoverEnvironments, type EnvCandidate } from './discover';
import { pythonTooOld } from '../config/kernelPython';
import type { ProbeCache } from './probeCache';

/** Probes run at once while listing (a machine with many pyenv versions is not probed one by one). */
const PARALLEL_PROBES = 4;

/** Every package any declaration of the language names (what each environment is probed for), with distribution names. */
export function declaredPackages(declarations: KernelEnvDeclaration[], language: KernelLanguage): { packages: string[]; distributions: Record<string, string> } {
  const mine = declarations.filter((d) => d.language === language);
  return {
    packages: [...new Set(mine.flatMap((d) => d.packages))],
    distributions: Object.assign({}, ...mine.map((d) => d.distributions ?? {})) as Record<string, string>,
  };
}

/** One candidate, probed (through the cache) and measured against its declaration. */
export async function describeCandidate(candidate: EnvCandidate, declarations: KernelEnvDeclaration[], probes: ProbeCache): Promise<EnvironmentView> {
  const { packages: all, distributions } = declaredPackages(declarations, candidate.language);
  const base = {
    id: candidate.id,
    language: candidate.language,
    kind: candidate.kind,
    label: candidate.label,
    interpreter: candidate.interpreter,
    declaration: candidate.declaration.id,
    ...(candidate.installCommand ? { installCommand: candidate.installCommand } : {}),
  };
  const unprobed = (reason: string, version: string | null = null): EnvironmentView => ({
    ...base,
    version,
    packages: all.map((name) => ({ name, version: null })),
    missing: [...candidate.declaration.packages],
    ready: false,
    reason,
  });
  if (!candidate.interpreter) return unprobed(candidate.reason ?? 'no interpreter found');
  const probe = await probes.probe(candidate.language, candidate.interpreter, all, distributions);
  // Too old for the kernels: said so, with its version; no missing packages or install command (no package makes it run).
  const tooOldView = (reason: string, version: string): EnvironmentView => {
    const { installCommand: _, ...view } = unprobed(reason, version);
    return { ...view, missing: [] };
  };
  if (!probe.ok) {
    if (candidate.language === 'python' && probe.version && pythonTooOld(probe.version)) return tooOldView(probe.reason, probe.version);
    return unprobed(`the interpreter could not be probed: ${probe.reason}`);
  }
  const tooOld = candidate.language === 'python' ? pythonTooOld(probe.version) : null;
  if (tooOld) return tooOldView(tooOld, probe.version);
  const packages: EnvironmentPackage[] = all.map((name) => ({ name, version: probe.packages[name] ?? null }));
  const missing = candidate.declaration.packages.filter((name) => probe.packages[name] == null);
  // A discovered Python environment gets its own pip command for what it lacks (declared ones carry theirs).
  const pip = !base.installCommand && missing.length && candidate.language === 'python' ? { installCommand: `${candidate.interpreter} -m pip install ${missing.map((m) => distributions[m] ?? m).join(' ')}` } : {};
  return { ...base, ...pip, version: probe.version, packages, missing, ready: missing.length === 0 };
}

/** Runs `fn` over `items` with at most `limit` at once, keeping their order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      out[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return out;
}

export interface CatalogOptions {
  declarations: () => KernelEnvDeclaration[];
  envsDir: string;
  processEnv: NodeJS.ProcessEnv;
  probes: ProbeCache;
}

/** Discovery plus probing: the environments env.list shows. */
export class EnvironmentCatalog {
  constructor(private readonly opts: CatalogOptions) {}

  /** The candidates without probing them (cheap: finding an id's interpreter). */
  candidates(): Promise<EnvCandidate[]> {
    return discoverEnvironments({ declarations: this.opts.declarations(), envsDir: this.opts.envsDir, processEnv: this.opts.processEnv });
  }

  async list(): Promise<EnvironmentView[]> {
    const declarations = this.opts.declarations();
    const candidates = await this.candidates();
    return mapLimited(candidates, PARALLEL_PROBES, (c) => describeCandidate(c, declarations, this.opts.probes));
  }

  /** One environment by id, probed; null when no such environment exists on this machine. */
  async find(id: string): Promise<{ candidate: EnvCandidate; view: EnvironmentView } | null> {
    const candidate = (await this.candidates()).find((c) => c.id === id);
    if (!candidate) return null;
    return { candidate, view: await describeCandidate(candidate, this.opts.declarations(), this.opts.probes) };
  }
}
