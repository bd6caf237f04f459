import type { RReport } from '../../../src-preload/contract/doctor';
import { chooseInterpreter, readKernelEnv } from '../config/kernelEnvs';
import { execProbe } from './exec';

const PROBE =
  'cat(paste0(R.version$major, ".", R.version$minor), "\\n", sep = ""); ' +
  'v <- tryCatch(as.character(utils::packageVersion("jsonlite")), error = function(e) ""); cat(v, "\\n", sep = "")';

/** The R report, or `{r: null, reason}` when no Rscript exists. */
export async function probeR(
  processEnv: NodeJS.ProcessEnv = process.env,
): Promise<{ r: RReport | null; reason?: string }> {
  let choice;
  try {
    choice = chooseInterpreter(readKernelEnv('r-default'), 'OPENAI4S_RSCRIPT', 'Rscript', processEnv);
  } catch (error) {
    return { r: null, reason: (error as Error).message };
  }
  if (!choice.path) return { r: null, reason: choice.reason };
  const run = await execProbe(choice.path, ['--vanilla', '-e', PROBE], {
    env: { PATH: processEnv.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', HOME: processEnv.HOME ?? '/tmp' },
  });
  if (!run.ok) return { r: { path: choice.path, version: null, jsonlite: null, reason: run.reason } };
  const [version = '', jsonlite = ''] = run.stdout.split('\n').map((s) => s.trim());
  const report: RReport = { path: choice.path, version: version || null, jsonlite: jsonlite || null };
  if (!jsonlite) report.reason = 'jsonlite is not installed (Debian: apt-get install r-cran-jsonlite)';
  return { r: report };
}
