import type { CurrentEnvironment } from '../../../src-preload/contract/environments';
import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import type { SkillLanguageReadiness, SkillReadiness } from '../../../src-preload/contract/skills';
import { installHint, type KernelEnvDeclaration } from '../config/kernelEnvs';
import type { SkillRequirements } from '../skills/skill';
import type { EnvironmentCatalog } from './catalog';
import { declaredPackages } from './catalog';
import type { ProbeCache } from './probeCache';

/** What readiness reads of the environment service (EnvironmentService has all of it). */
export interface ReadinessEnvironments {
  declarations(): KernelEnvDeclaration[];
  probes: Pick<ProbeCache, 'probe'>;
  catalog: Pick<EnvironmentCatalog, 'candidates'>;
  currentOrDefault(sessionId?: string): Record<KernelLanguage, CurrentEnvironment>;
}

export interface ReadinessOptions {
  sessionId?: string | undefined;
  platform?: NodeJS.Platform;
}

type Requiring = { name: string; requires: SkillRequirements };

const LANGUAGES: readonly KernelLanguage[] = ['python', 'r'];
/** Debian's package prefixes: python3-<name>, r-cran-<name>, r-bioc-<name> (lower-case). */
const APT_PREFIXES: Record<KernelLanguage, string[]> = { python: ['python3-'], r: ['r-cran-', 'r-bioc-'] };
/** Environments probed when looking for a ready alternative (each probe is cached, but the first costs a process). */
const MAX_ALTERNATIVES_PROBED = 8;

/** The Debian package names the declarations' apt commands install (what is known to exist). */
function aptNames(declarations: KernelEnvDeclaration[], language: KernelLanguage): Set<string> {
  const commands = declarations.filter((d) => d.language === language).map((d) => installHint(d, 'linux') ?? '');
  return new Set(commands.flatMap((c) => c.split(/\s+/)).filter((t) => /^[a-z0-9][a-z0-9.+-]*$/.test(t)));
}

function aptName(language: KernelLanguage, names: string[], known: Set<string>): string | null {
  for (const prefix of APT_PREFIXES[language]) {
    for (const name of names) if (known.has(`${prefix}${name.toLowerCase()}`)) return `${prefix}${name.toLowerCase()}`;
  }
  return null;
}

function rInstall(packages: string[], bioc: Set<string>): string {
  const quoted = (list: string[]) => list.map((p) => `"${p}"`).join(', ');
  const cran = packages.filter((p) => !bioc.has(p));
  const fromBioc = packages.filter((p) => bioc.has(p));
  const steps = [cran.length ? `install.packages(c(${quoted(cran)}))` : '', fromBioc.length ? `install.packages("BiocManager"); BiocManager::install(c(${quoted(fromBioc)}))` : ''];
  return `Rscript -e '${steps.filter(Boolean).join('; ')}'`;
}

/**
 * The command that installs `packages` for `interpreter` on `platform`: on Linux the Debian
 * packages the declarations name (python3-rdkit, r-bioc-deseq2), else pip for that
 * interpreter or install.packages / BiocManager for R; macOS uses pip or R's installers;
 * Windows runs the kernels in WSL2, so the Linux command inside it.
 */
export function packageInstallCommand(
  language: KernelLanguage,
  packages: string[],
  declarations: KernelEnvDeclaration[],
  interpreter: string | null,
  platform: NodeJS.Platform = process.platform,
): string | null {
  if (packages.length === 0) return null;
  if (platform === 'win32') return `Windows runs the kernels in WSL2; inside it: ${packageInstallCommand(language, packages, declarations, null, 'linux')}`;
  const { distributions } = declaredPackages(declarations, language);
  const known = aptNames(declarations, language);
  const bioc = new Set(packages.filter((p) => known.has(`r-bioc-${p.toLowerCase()}`)));
  const apt: string[] = [];
  const other: string[] = [];
  for (const name of packages) {
    const debian = platform === 'linux' ? aptName(language, [name, distributions[name] ?? name], known) : null;
    if (debian) apt.push(debian);
    else other.push(language === 'python' ? (distributions[name] ?? name) : name);
  }
  const python = interpreter ?? 'python3';
  const commands = [
    apt.length ? `sudo apt-get install ${apt.join(' ')}` : '',
    other.length ? (language === 'python' ? `${python} -m pip install ${other.join(' ')}` : rInstall(other, bioc)) : '',
  ];
  return commands.filter(Boolean).join(' && ');
}

/** Probes the environments of each language once for every package the skills need, then answers per skill. */
export async function skillsReadiness(skills: Requiring[], envs: ReadinessEnvironments, opts: ReadinessOptions = {}): Promise<Map<string, SkillReadiness>> {
  const current = envs.currentOrDefault(opts.sessionId);
  const declarations = envs.declarations();
  const probed = new Map<KernelLanguage, { packages: Record<string, string | null> } | { reason: string }>();
  for (const language of LANGUAGES) {
    const wanted = [...new Set(skills.flatMap((s) => s.requires[language]))];
    if (wanted.length === 0) continue;
    const interpreter = current[language].interpreter;
    if (!interpreter) {
      probed.set(language, { reason: `${current[language].environmentId} has no interpreter on this machine` });
      continue;
    }
    const probe = await envs.probes.probe(language, interpreter, wanted, declaredPackages(declarations, language).distributions);
    probed.set(language, probe.ok ? { packages: probe.packages } : { reason: `${current[language].environmentId} could not be probed: ${probe.reason}` });
  }
  const answers = new Map<string, SkillReadiness>();
  for (const skill of skills) {
    const languages = LANGUAGES.filter((l) => skill.requires[l].length > 0).map((language): SkillLanguageReadiness => {
      const required = skill.requires[language];
      const env = current[language];
      const result = probed.get(language)!;
      const found = 'packages' in result ? result.packages : {};
      const missing = required.filter((p) => found[p] == null);
      return {
        language,
        environmentId: env.environmentId,
        interpreter: env.interpreter,
        present: required.filter((p) => found[p] != null),
        missing,
        installCommand: packageInstallCommand(language, missing, declarations, env.interpreter, opts.platform),
        reason: 'reason' in result ? result.reason : null,
      };
    });
    answers.set(skill.name, { ready: languages.every((l) => l.missing.length === 0), languages });
  }
  return answers;
}

export async function skillReadiness(skill: Requiring, envs: ReadinessEnvironments, opts: ReadinessOptions = {}): Promise<SkillReadiness> {
  return (await skillsReadiness([skill], envs, opts)).get(skill.name)!;
}

/** Other environments of the language (another interpreter than `except`) that have every one of `packages`. */
export async function readyAlternatives(language: KernelLanguage, packages: string[], except: string | null, envs: ReadinessEnvironments): Promise<string[]> {
  const { distributions } = declaredPackages(envs.declarations(), language);
  const candidates = (await envs.catalog.candidates()).filter((c) => c.language === language && c.interpreter && c.interpreter !== except).slice(0, MAX_ALTERNATIVES_PROBED);
  const ready: string[] = [];
  for (const candidate of candidates) {
    const probe = await envs.probes.probe(language, candidate.interpreter!, packages, distributions);
    if (probe.ok && packages.every((p) => probe.packages[p] != null)) ready.push(candidate.id);
  }
  return ready;
}
