import type { ActionGroupRecord } from '../ledger/actionsRepo';
import type { EnvironmentLock } from '../ledger/environmentsRepo';
import type { KernelGenerationRecord } from '../ledger/kernelsRepo';

/** One imported package of a generation, with the version installed in its environment. */
export interface ImportedPackage {
  /** What the cells imported: a Python top-level module, an R package. */
  module: string;
  /** The distribution that provides it (Python), when its metadata says. */
  distribution: string | null;
  version: string | null;
}

export interface GenerationLock {
  generation: string;
  language: 'python' | 'r';
  number: number;
  startedAt: string;
  environment: string;
  interpreter: string;
  interpreterVersion: string | null;
  /** The packages the generation's cells imported, with versions: what a collaborator installs to rebuild it. */
  imported: ImportedPackage[];
  /** pip requirement lines (Python) or `package version` lines (R) for `imported`. */
  requirements: string[];
  /** How many packages the environment had in all when the generation started. */
  installedCount: number;
}

const PY_IMPORT = /^\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)/gm;
const PY_FROM = /^\s*from\s+([\w.]+)\s+import\b/gm;
const R_LOAD = /\b(?:library|require|requireNamespace|loadNamespace)\(\s*["']?([A-Za-z][\w.]*)/g;
const R_NAMESPACE = /\b([A-Za-z][\w.]*):::?[A-Za-z.]/g;

/** The top-level packages a cell imports (Python `import`/`from`, R `library`/`require`/`pkg::`). */
export function importedNames(language: 'python' | 'r', code: string): string[] {
  const names = new Set<string>();
  if (language === 'python') {
    for (const m of code.matchAll(PY_IMPORT)) for (const part of m[1]!.split(',')) names.add(part.trim().split(/\s+/)[0]!.split('.')[0]!);
    for (const m of code.matchAll(PY_FROM)) names.add(m[1]!.split('.')[0]!);
  } else {
    for (const m of code.matchAll(R_LOAD)) names.add(m[1]!);
    for (const m of code.matchAll(R_NAMESPACE)) names.add(m[1]!);
  }
  names.delete('');
  return [...names].sort();
}

const normal = (name: string) => name.toLowerCase().replace(/[-_.]+/g, '-');

function resolve(lock: EnvironmentLock, language: 'python' | 'r', module: string): ImportedPackage | null {
  const installed = new Map(Object.entries(lock.lock.packages).map(([name, version]) => [normal(name), { name, version }]));
  if (language === 'r') return { module, distribution: null, version: lock.lock.packages[module] ?? null };
  if (lock.lock.stdlib?.includes(module)) return null;
  const dist = lock.lock.modules?.[module]?.[0];
  const found = dist ? installed.get(normal(dist)) : installed.get(normal(module));
  if (found) return { module, distribution: found.name, version: found.version };
  return { module, distribution: null, version: lock.lock.declared?.[module] ?? null };
}

/**
 * Per kernel generation of the session: its environment and the versions of the packages
 * its cells imported. A cell belongs to the newest generation of its language that had
 * started when the cell finished (cells start their kernel, so they begin before it).
 */
export function generationLocks(generations: KernelGenerationRecord[], locks: EnvironmentLock[], cells: ActionGroupRecord[]): GenerationLock[] {
  const byGeneration = new Map(locks.map((l) => [l.generationId, l]));
  const imports = new Map<string, Set<string>>();
  for (const cell of cells) {
    const event = cell.events[0];
    if (cell.kind !== 'cell' || !event || (event.name !== 'python' && event.name !== 'r')) continue;
    const at = cell.finishedAt ?? cell.startedAt;
    const owner = generations.filter((g) => g.language === event.name && g.startedAt <= at).at(-1);
    if (!owner) continue;
    const set = imports.get(owner.id) ?? new Set<string>();
    for (const name of importedNames(event.name, event.rawArguments)) set.add(name);
    imports.set(owner.id, set);
  }
  return generations.flatMap((g) => {
    const lock = byGeneration.get(g.id);
    if (!lock) return [];
    const imported = [...(imports.get(g.id) ?? [])].sort().map((m) => resolve(lock, g.language, m)).filter((p): p is ImportedPackage => p !== null);
    const requirements = imported.filter((p) => p.version).map((p) => (g.language === 'python' ? `${p.distribution ?? p.module}==${p.version}` : `${p.module} ${p.version}`));
    return [
      {
        generation: g.id,
        language: g.language,
        number: g.generation,
        startedAt: g.startedAt,
        environment: lock.environmentId,
        interpreter: lock.interpreter,
        interpreterVersion: lock.interpreterVersion,
        imported,
        requirements: [...new Set(requirements)],
        installedCount: Object.keys(lock.lock.packages).length,
      },
    ];
  });
}
