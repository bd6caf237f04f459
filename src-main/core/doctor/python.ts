import type { PythonReport } from '../../../src-preload/contract/doctor';
import { probeInterpreter } from '../config/interpreterProbe';
import { pythonTooOld } from '../config/kernelPython';
import { installHint, kernelInterpreter, type InterpreterChoice, type KernelEnvDeclaration } from '../config/kernelEnvs';

/** The packages the report names (the contract's PythonReport has a field for each). */
const PACKAGES = ['numpy', 'pandas', 'matplotlib'] as const;

export async function probePython(processEnv: NodeJS.ProcessEnv = process.env): Promise<PythonReport> {
  let resolved: { decl: KernelEnvDeclaration; choice: InterpreterChoice } | null;
  try {
    resolved = kernelInterpreter('python', processEnv);
  } catch {
    // The report says the declaration cannot be read (the reason below), and goes on.
    resolved = null;
  }
  const report = await probe(processEnv, resolved?.choice ?? null);
  const missing = !report.version || Object.values(report.packages).some((v) => v === null);
  const hint = missing && resolved ? installHint(resolved.decl) : undefined;
  return hint ? { ...report, installHint: hint } : report;
}

async function probe(processEnv: NodeJS.ProcessEnv, choice: InterpreterChoice | null): Promise<PythonReport> {
  const empty = { numpy: null, pandas: null, matplotlib: null };
  if (!choice) return { path: null, source: 'none', version: null, reason: 'envs/python-default.json cannot be read', packages: empty };
  if (!choice.path) return { path: null, source: choice.source, version: null, reason: choice.reason, packages: empty };
  const probed = await probeInterpreter('python', choice.path, PACKAGES, { env: { PATH: processEnv.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' }, timeoutMs: 15_000 });
  if (!probed.ok) return { path: choice.path, source: choice.source, version: null, reason: probed.reason, packages: empty };
  const packages = { numpy: probed.packages.numpy ?? null, pandas: probed.packages.pandas ?? null, matplotlib: probed.packages.matplotlib ?? null };
  const report: PythonReport = { path: choice.path, source: choice.source, version: probed.version, packages };
  // It answers, but the kernel worker cannot run on it.
  const tooOld = pythonTooOld(probed.version);
  if (tooOld) report.reason = tooOld;
  if (Object.keys(probed.reasons).length) report.packageReasons = probed.reasons;
  return report;
}
