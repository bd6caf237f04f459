import type { PythonReport } from '../../../src-preload/contract/doctor';
import { chooseInterpreter, installHint, readKernelEnv, type KernelEnvDeclaration } from '../config/kernelEnvs';
import { execProbe, lastLine } from '../kernel/execProbe';

const PACKAGES = ['numpy', 'pandas', 'matplotlib'] as const;

// Reads versions from package metadata first (fast, imports nothing); falls back to
// importing the module for installs without metadata. Prints one JSON object.
const PROBE = `
import json, sys
out = {"version": "%d.%d.%d" % sys.version_info[:3], "packages": {}, "reasons": {}}
for name in ${JSON.stringify(PACKAGES)}:
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

export async function probePython(processEnv: NodeJS.ProcessEnv = process.env): Promise<PythonReport> {
  let decl: KernelEnvDeclaration | null = null;
  try {
    decl = readKernelEnv('python-default');
  } catch {
    decl = null;
  }
  const report = await probe(processEnv, decl);
  const missing = !report.version || Object.values(report.packages).some((v) => v === null);
  const hint = missing && decl ? installHint(decl) : undefined;
  return hint ? { ...report, installHint: hint } : report;
}

async function probe(processEnv: NodeJS.ProcessEnv, decl: KernelEnvDeclaration | null): Promise<PythonReport> {
  const empty = { numpy: null, pandas: null, matplotlib: null };
  if (!decl) {
    return { path: null, source: 'none', version: null, reason: 'envs/python-default.json cannot be read', packages: empty };
  }
  const choice = chooseInterpreter(decl, 'OPENAI4S_PYTHON', 'python3', processEnv);
  if (!choice.path) {
    return { path: null, source: choice.source, version: null, reason: choice.reason, packages: empty };
  }
  const run = await execProbe(choice.path, ['-I', '-c', PROBE], {
    env: { PATH: processEnv.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' },
  });
  if (!run.ok) {
    return { path: choice.path, source: choice.source, version: null, reason: run.reason, packages: empty };
  }
  try {
    const parsed = JSON.parse(run.stdout.trim().split('\n').pop() ?? '') as {
      version: string;
      packages: Record<string, string | null>;
      reasons: Record<string, string>;
    };
    const packages = {
      numpy: parsed.packages.numpy ?? null,
      pandas: parsed.packages.pandas ?? null,
      matplotlib: parsed.packages.matplotlib ?? null,
    };
    const report: PythonReport = { path: choice.path, source: choice.source, version: parsed.version, packages };
    if (Object.keys(parsed.reasons).length) report.packageReasons = parsed.reasons;
    return report;
  } catch {
    return {
      path: choice.path,
      source: choice.source,
      version: null,
      reason: `unreadable probe output: ${lastLine(run.stdout)}`,
      packages: empty,
    };
  }
}
