import type { KernelLanguage } from '../../../src-preload/contract/kernel';
import { execProbe, lastLine } from '../shared/execProbe';
import { refusedPythonProbe } from './kernelPython';

/**
 * The one way the app asks a kernel interpreter for its version and the versions of its
 * packages: the doctor's report and an artifact's recorded environment both read it, so
 * they never disagree about the same interpreter.
 */

export type InterpreterProbe =
  | {
      ok: true;
      /** Bare version, e.g. "3.11.2" or "4.2.2". */
      version: string;
      /** Installed version by package name; null when the package is missing. */
      packages: Record<string, string | null>;
      /** Why a package is missing, when the interpreter said (Python's import error). */
      reasons: Record<string, string>;
    }
  | { ok: false; reason: string };

// Versions from package metadata first (fast, imports nothing); the import is the fallback
// for installs without metadata, and its error is the reason a package is missing. One
// JSON object on the last line.
const PYTHON_PROBE = `
import json, sys
out = {"version": "%d.%d.%d" % sys.version_info[:3], "packages": {}, "reasons": {}}
for name in sys.argv[1:]:
    try:
        from importlib import metadata
        out["packages"][name] = metadata.version(name)
        continue
    except Exception:
        pass
    try:
        mod = __import__(name)
        out["packages"][name] = str(getattr(mod, "__version__", "unknown"))
    except Exception as exc:
        out["packages"][name] = None
        out["reasons"][name] = "%s: %s" % (type(exc).__name__, exc)
print(json.dumps(out))
`;

// Base R only (no jsonlite needed to report whether jsonlite exists): the version, then
// one "name<TAB>version" line per package (an empty version when it is missing).
const R_PROBE = [
  'args <- commandArgs(TRUE)',
  'cat(R.version$major, ".", R.version$minor, "\\n", sep = "")',
  'for (p in args) { v <- tryCatch(as.character(utils::packageVersion(p)), error = function(e) ""); cat(p, "\\t", v, "\\n", sep = "") }',
].join('\n');

/** Runs the probe in `interpreter` with the given environment; never rejects. */
export async function probeInterpreter(
  language: KernelLanguage,
  interpreter: string,
  packages: readonly string[],
  options: { env: NodeJS.ProcessEnv; timeoutMs?: number },
): Promise<InterpreterProbe> {
  const args = language === 'python' ? ['-I', '-c', PYTHON_PROBE, ...packages] : ['--vanilla', '-e', R_PROBE, ...packages];
  const run = await execProbe(interpreter, args, { env: options.env, timeoutMs: options.timeoutMs ?? 20_000 });
  if (!run.ok) {
    // A Python too old for the kernels (2.x refuses -I) says so, instead of its usage text.
    const which = language === 'python' ? await refusedPythonProbe(interpreter, options.env) : null;
    return { ok: false, reason: which?.tooOld ?? run.reason ?? `${interpreter} failed` };
  }
  const parsed = language === 'python' ? readPython(run.stdout) : readR(run.stdout, packages);
  return parsed ?? { ok: false, reason: `unreadable probe output: ${lastLine(run.stdout)}` };
}

function readPython(stdout: string): Extract<InterpreterProbe, { ok: true }> | null {
  try {
    const out = JSON.parse(stdout.trim().split('\n').pop() ?? '') as { version?: unknown; packages?: Record<string, string | null>; reasons?: Record<string, string> };
    if (typeof out.version !== 'string') return null;
    return { ok: true, version: out.version, packages: out.packages ?? {}, reasons: out.reasons ?? {} };
  } catch {
    // Not JSON: the caller reports the output as unreadable, quoting its last line.
    return null;
  }
}

function readR(stdout: string, packages: readonly string[]): Extract<InterpreterProbe, { ok: true }> | null {
  const [version = '', ...rest] = stdout.split('\n').map((l) => l.trim());
  if (!/^\d/.test(version)) return null;
  const found = new Map(rest.filter(Boolean).map((l) => l.split('\t') as [string, string | undefined]));
  return { ok: true, version, packages: Object.fromEntries(packages.map((name) => [name, found.get(name) || null])), reasons: {} };
}
