import { appRoot } from '../../core/config/appPaths';
import { resolveKernelLimits } from '../../core/config/kernelLimits';
import type { ArtifactCheck } from '../../core/export/reproduce/compareArtifacts';
import { reproducePackage, type ReproduceReport } from '../../core/export/reproduce/reproduce';
import type { CliCommand, CliIO } from '../command';
import { usageError } from '../sessionArg';

const USAGE = [
  'openai4s reproduce <package.zip> [--json] [--timeout MS] [--pixel-tolerance FRACTION] [--keep]',
  '',
  'Verifies an exported session, runs its cells again in fresh sandboxed kernels whose host',
  'calls are answered from the recorded answers in the package (no network), and reports per',
  'artifact whether the recomputed bytes match, differ (a diff, or a pixel difference for',
  'figures) or could not be recomputed (why). Exits 0 when everything reproduced.',
  '--pixel-tolerance: the share of a figure\'s pixels that may differ (default 0.001).',
  '--keep: keep the folder the cells ran in (its path is printed).',
].join('\n');

const OUTCOME_LABEL: Record<ArtifactCheck['outcome'], string> = {
  match: 'match',
  within_tolerance: 'within tolerance',
  differs: 'DIFFERS',
  not_recomputed: 'not recomputed',
};

function printReport(report: ReproduceReport, io: CliIO): void {
  const say = report.ok ? io.out : io.err;
  if (report.verified) io.out(`package: verified (signature: ${report.signature?.summary ?? 'none'})`);
  else for (const problem of report.problems) io.err(`package: does not match its manifest: ${problem}`);
  for (const input of report.inputs) if (!input.staged) io.err(`input ${input.path}: not staged: ${input.reason}`);
  for (const cell of report.cells) {
    const printed = cell.stdout === 'match' ? 'printed output matches' : cell.stdout === 'differs' ? 'printed output DIFFERS' : 'no recorded output';
    const line = `cell ${cell.index} (${cell.language}): ${cell.status}${cell.recordedStatus !== cell.status ? ` (was ${cell.recordedStatus})` : ''}, ${printed}${cell.error ? `: ${cell.error}` : ''}`;
    (cell.status === cell.recordedStatus && cell.stdout !== 'differs' ? io.out : io.err)(line);
    for (const diff of cell.stdoutDiff ?? []) io.err(`    ${diff}`);
  }
  for (const a of report.artifacts) {
    const good = a.outcome === 'match' || a.outcome === 'within_tolerance';
    (good ? io.out : io.err)(`${OUTCOME_LABEL[a.outcome].padEnd(16)} ${a.path} v${a.version}${a.outcome === 'match' ? ` (sha256 ${a.recordedSha256.slice(0, 12)}…)` : `: ${a.reason}`}`);
    for (const line of a.diff?.lines ?? []) io.err(`    ${line}`);
  }
  for (const u of report.unanswered) io.err(`unanswered: ${u.method}(${JSON.stringify(u.arguments)}): the session never made this request`);
  if (report.workspace) io.out(`workspace kept: ${report.workspace}`);
  say(summary(report));
}

/** The last line: whether it reproduced, and how many artifact versions matched. */
function summary(report: ReproduceReport): string {
  const reproduced = report.artifacts.filter((a) => a.outcome === 'match' || a.outcome === 'within_tolerance').length;
  return `${report.ok ? 'reproduced' : 'NOT reproduced'}: ${reproduced} of ${report.artifacts.length} artifact versions match, ${report.cells.length} cells run`;
}

export const reproduceCommand: CliCommand = {
  name: 'reproduce',
  summary: 'Run an exported session again in a fresh sandboxed kernel and check each artifact matches',
  usage: USAGE,
  options: { json: { type: 'boolean' }, timeout: { type: 'string' }, 'pixel-tolerance': { type: 'string' }, keep: { type: 'boolean' } },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const [file] = positionals;
    if (!file || positionals.length !== 1) {
      return usageError(io, 'reproduce')('give one exported package: openai4s reproduce <file.zip>.');
    }
    const timeoutMs = values.timeout === undefined ? undefined : Number(values.timeout);
    if (timeoutMs !== undefined && !(Number.isSafeInteger(timeoutMs) && timeoutMs > 0)) {
      io.err(`--timeout needs a positive number of milliseconds, not ${JSON.stringify(values.timeout)}`);
      return 2;
    }
    const tolerance = values['pixel-tolerance'] === undefined ? undefined : Number(values['pixel-tolerance']);
    if (tolerance !== undefined && !(tolerance >= 0 && tolerance <= 1)) {
      io.err(`--pixel-tolerance needs a share between 0 and 1 (0.001 = one pixel in a thousand), not ${JSON.stringify(values['pixel-tolerance'])}`);
      return 2;
    }
    const { config, settings } = core!;
    const report = await reproducePackage(file, {
      dataDir: config.dataDir,
      processEnv: config.processEnv,
      sandboxMode: () => settings.sandboxMode(),
      kernelLimits: () => resolveKernelLimits((name) => config.env.get(name), appRoot(config.processEnv)).values,
      ...(timeoutMs ? { timeoutMs } : {}),
      ...(tolerance !== undefined ? { pixelTolerance: tolerance } : {}),
      keepWorkspace: values.keep === true,
    });
    if (values.json) {
      io.out(JSON.stringify(report, null, 2));
      // The report is for the program reading stdout; the person at the terminal still sees why it failed.
      if (!report.ok) io.err(`openai4s reproduce: ${(report.refused ?? summary(report)).replace(/\.$/, '')} (details in the JSON report).`);
    } else if (report.refused) io.err(`openai4s reproduce: ${report.refused}`);
    else printReport(report, io);
    return report.ok ? 0 : 1;
  },
};
