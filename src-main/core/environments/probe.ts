import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { execProbe, lastLine } from '../shared/execProbe';
import { refusedPythonProbe } from '../config/kernelPython';

/**
 * One probe of an interpreter, run once and cached (probeCache.ts): its version, where its
 * packages live (the cache is invalidated when one of those folders changes), the declared
 * packages with versions, and every installed package (the generation's environment lock).
 */
export interface EnvProbe {
  ok: true;
  version: string;
  /** Folders packages are installed in (site-packages, dist-packages, R's .libPaths()). */
  sitePaths: string[];
  /** Declared packages by import/package name: version, or null when missing. */
  packages: Record<string, string | null>;
  /** Why a declared package is missing, when the interpreter said. */
  reasons: Record<string, string>;
  /** Every installed distribution (Python) or package (R) with its version. */
  installed: Record<string, string>;
  /** Python: top-level module -> distributions providing it. */
  modules: Record<string, string[]>;
  /** Python: standard-library module names. */
  stdlib: string[];
}

/** A failed probe; `version` when the interpreter still said which it is (a Python 2 refuses the probe's -I). */
export type EnvProbeResult = EnvProbe | { ok: false; reason: string; version?: string };

// Runs on Python 3.x (pyenv keeps old ones): no f-strings, metadata optional. A Python 2 refuses
// -I; the probe then asks its version (kernelPython.ts says it is too old).
// Versions from metadata first (imports nothing); an import only for packages installed
// without metadata (Debian's RDKit, gemmi). One JSON object on the last line.
const PYTHON = `
import json, os, sys
out = {"version": "%d.%d.%d" % tuple(sys.version_info[:3]), "packages": {}, "reasons": {}, "installed": {}, "modules": {}}
out["stdlib"] = sorted(getattr(sys, "stdlib_module_names", []))
try:
    from importlib import metadata
except Exception:
    metadata = None
paths = []
try:
    import site
    paths = list(site.getsitepackages())
except Exception:
    pass
paths += [p for p in sys.path if p.endswith("site-packages") or p.endswith("dist-packages")]
out["sitePaths"] = sorted(set(p for p in paths if os.path.isdir(p)))
if metadata is not None:
    for d in metadata.distributions():
        try:
            name = d.metadata["Name"]
            if name and name not in out["installed"]:
                out["installed"][name] = d.version
        except Exception:
            pass
    try:
        out["modules"] = dict((k, sorted(set(v))) for k, v in metadata.packages_distributions().items())
    except Exception:
        pass
for spec in sys.argv[1:]:
    name, _, dist = spec.partition("=")
    version = None
    if metadata is not None:
        for candidate in [dist, name]:
            if not candidate:
                continue
            try:
                version = metadata.version(candidate)
                break
            except Exception:
                pass
    if version is None:
        try:
            mod = __import__(name)
            version = str(getattr(mod, "__version__", "unknown"))
        except Exception as exc:
            out["reasons"][name] = "%s: %s" % (type(exc).__name__, exc)
    out["packages"][name] = version
print(json.dumps(out))
`;

// Base R only. Lines: version; library folders (tab-separated); then "name<TAB>version"
// for each declared package (empty version: missing); then "*<TAB>name<TAB>version" for
// every installed package.
const R = [
  'args <- commandArgs(TRUE)',
  'cat(R.version$major, ".", R.version$minor, "\\n", sep = "")',
  'cat(paste(.libPaths(), collapse = "\\t"), "\\n", sep = "")',
  'for (p in args) { v <- tryCatch(as.character(utils::packageVersion(p)), error = function(e) ""); cat(p, "\\t", v, "\\n", sep = "") }',
  'ip <- utils::installed.packages(fields = character(0))',
  'for (i in seq_len(nrow(ip))) cat("*\\t", ip[i, "Package"], "\\t", ip[i, "Version"], "\\n", sep = "")',
].join('\n');

/** `name=distribution` for Python (metadata is looked up under the distribution's name). */
function pythonArgs(packages: readonly string[], distributions: Record<string, string>): string[] {
  return packages.map((name) => (distributions[name] ? `${name}=${distributions[name]}` : name));
}

/** Probes `interpreter` outside the sandbox with the kernel's cleared environment; never rejects. */
export async function probeEnvironment(
  language: KernelLanguage,
  interpreter: string,
  packages: readonly string[],
  options: { distributions?: Record<string, string>; env?: NodeJS.ProcessEnv; timeoutMs?: number } = {},
): Promise<EnvProbeResult> {
  const env = options.env ?? { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
  const args = language === 'python' ? ['-I', '-c', PYTHON, ...pythonArgs(packages, options.distributions ?? {})] : ['--vanilla', '-e', R, ...packages];
  const run = await execProbe(interpreter, args, { env, timeoutMs: options.timeoutMs ?? 60_000 });
  if (!run.ok) {
    const failed = { ok: false as const, reason: run.reason ?? `${interpreter} failed` };
    if (language !== 'python') return failed;
    // Which Python refused: one too old for the kernels says so, instead of its usage text.
    const which = await refusedPythonProbe(interpreter, env);
    return which ? { ok: false, reason: which.tooOld ?? failed.reason, version: which.version } : failed;
  }
  const parsed = language === 'python' ? readPython(run.stdout) : readR(run.stdout, packages);
  return parsed ?? { ok: false, reason: `unreadable probe output from ${interpreter}: ${lastLine(run.stdout)}` };
}

function readPython(stdout: string): EnvProbe | null {
  try {
    const out = JSON.parse(stdout.trim().split('\n').pop() ?? '') as Partial<EnvProbe>;
    if (typeof out.version !== 'string') return null;
    return {
      ok: true,
      version: out.version,
      sitePaths: out.sitePaths ?? [],
      packages: out.packages ?? {},
      reasons: out.reasons ?? {},
      installed: out.installed ?? {},
      modules: out.modules ?? {},
      stdlib: out.stdlib ?? [],
    };
  } catch {
    // Not JSON: the caller reports the output as unreadable.
    return null;
  }
}

function readR(stdout: string, packages: readonly string[]): EnvProbe | null {
  const [version = '', libs = '', ...rest] = stdout.split('\n').map((l) => l.replace(/\r$/, ''));
  if (!/^\d/.test(version.trim())) return null;
  const declared = new Map<string, string>();
  const installed: Record<string, string> = {};
  for (const line of rest) {
    const parts = line.split('\t');
    if (parts[0] === '*' && parts[1]) installed[parts[1]] ??= parts[2] ?? '';
    else if (parts[0]) declared.set(parts[0], parts[1] ?? '');
  }
  return {
    ok: true,
    version: version.trim(),
    sitePaths: libs.split('\t').filter(Boolean),
    packages: Object.fromEntries(packages.map((name) => [name, declared.get(name) || null])),
    reasons: {},
    installed,
    modules: {},
    stdlib: [],
  };
}
