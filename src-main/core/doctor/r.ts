import type { RReport } from '../../../src-preload/contract/doctor';
import { chooseInterpreter, installHint, readKernelEnv } from '../config/kernelEnvs';
import { execProbe } from '../kernel/execProbe';

const PROBE =
  'cat(paste0(R.version$major, ".", R.version$minor), "\\n", sep = ""); ' +
  'v <- tryCatch(as.character(utils::packageVersion("jsonlite")), error = function(e) ""); cat(v, "\\n", sep = "")';

/** The R report, or `{r: null, reason}` when no Rscript exists. */
export async function probeR(
  processEnv: NodeJS.ProcessEnv = process.env,
): Promise<{ r: RReport | null; reason?: string; installHint?: string }> {
  let decl;
  try {
    decl = readKernelEnv('r-default');
  } catch (error) {
    return { r: null, reason: (error as Error).message };
  }
  const hint = installHint(decl);
  const choice = chooseInterpreter(decl, 'OPENAI4S_RSCRIPT', 'Rscript', processEnv);
  if (!choice.path) return { r: null, ...(choice.reason ? { reason: choice.reason } : {}), ...(hint ? { installHint: hint } : {}) };
  const run = await execProbe(choice.path, ['--vanilla', '-e', PROBE], {
    env: { PATH: processEnv.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: processEnv.HOME ?? '/tmp' },
  });
  if (!run.ok) return { r: { path: choice.path, version: null, jsonlite: null, reason: run.reason } };
  const [version = '', jsonlite = ''] = run.stdout.split('\n').map((s) => s.trim());
  const report: RReport = { path: choice.path, version: version || null, jsonlite: jsonlite || null };
  if (!jsonlite) {
    report.reason = 'jsonlite is not installed';
    if (hint) report.installHint = hint;
  }
  return { r: report };
}
