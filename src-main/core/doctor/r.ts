import type { RReport } from '../../../src-preload/contract/doctor';
import { probeInterpreter } from '../config/interpreterProbe';
import { installHint, kernelInterpreter } from '../config/kernelEnvs';
import { errorMessage } from '../shared/errorMessage';

/** The R report, or `{r: null, reason}` when no Rscript exists. */
export async function probeR(processEnv: NodeJS.ProcessEnv = process.env): Promise<{ r: RReport | null; reason?: string; installHint?: string }> {
  let resolved;
  try {
    resolved = kernelInterpreter('r', processEnv);
  } catch (error) {
    return { r: null, reason: errorMessage(error) };
  }
  const { decl, choice } = resolved;
  const hint = installHint(decl);
  if (!choice.path) return { r: null, ...(choice.reason ? { reason: choice.reason } : {}), ...(hint ? { installHint: hint } : {}) };
  const probed = await probeInterpreter('r', choice.path, ['jsonlite'], {
    env: { PATH: processEnv.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: processEnv.HOME ?? '/tmp' },
    timeoutMs: 15_000,
  });
  if (!probed.ok) return { r: { path: choice.path, version: null, jsonlite: null, reason: probed.reason } };
  const jsonlite = probed.packages.jsonlite ?? null;
  const report: RReport = { path: choice.path, version: probed.version, jsonlite };
  if (!jsonlite) {
    report.reason = 'jsonlite is not installed';
    if (hint) report.installHint = hint;
  }
  return { r: report };
}
