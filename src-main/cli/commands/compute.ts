import fs from 'node:fs';
import type { ComputeJobView, ComputeLanguage } from '../../../src-preload/contract/compute';
import type { CliCommand, CliIO } from '../command';
import { sessionOptionProblem, usageError } from '../sessionArg';

const USAGE = [
  'openai4s compute targets [--json]',
  '       openai4s compute submit --target <name> --session <id> --language python|r|shell --script-file <file>',
  '                               [--inputs a.csv,av_...] [--outputs out.csv,...] [--cpus N] [--memory-mb N]',
  '                               [--time-min N] [--gpus N] [--partition P] [--json]',
  '       openai4s compute status [<jobId>] [--session <id>] [--json]',
  '       openai4s compute result <jobId> [--wait <seconds>] [--json]',
  '       openai4s compute cancel <jobId> [--json]',
  '',
  'Jobs on the Slurm clusters and SSH hosts configured in <data root>/compute/targets.json (or',
  'Settings → Compute). submit stages the inputs (workspace files of the session, or artifact',
  'versions av_...) and hands the script to the target; running the command is your approval.',
  'status and result ask the target and harvest finished jobs: their declared outputs become',
  'artifact versions of the session, with the job as provenance.',
].join('\n');

const JOB = /^job_[a-z2-7]{16}$/;

function line(j: ComputeJobView): string {
  const exit = j.exitCode === null ? '' : ` exit ${j.exitCode}`;
  const elapsed = j.elapsedSeconds === null ? '' : ` ${j.elapsedSeconds}s`;
  const where = j.schedulerJobId ? ` ${j.targetKind === 'slurm' ? 'slurm job' : 'pid'} ${j.schedulerJobId}` : '';
  const flags = [j.harvested ? 'harvested' : null, j.pollError ? `target unreachable: ${j.pollError}` : null].filter(Boolean).join('; ');
  return `${j.id}  ${j.target}${where}  ${j.state}${exit}${elapsed}${j.node ? ` on ${j.node}` : ''}${flags ? `  (${flags})` : ''}`;
}

function report(j: ComputeJobView, io: CliIO): void {
  io.out(line(j));
  if (j.reason) io.out(`  reason: ${j.reason}`);
  for (const o of j.outputsHarvested) io.out(`  output ${o.path}  ${o.versionId}  ${o.size} B  sha256=${o.sha256}  evidence ${o.evidenceId}`);
  for (const m of j.missingOutputs) io.out(`  missing ${m}`);
  for (const [name, log] of Object.entries(j.logs)) if (log) io.out(`  ${name} ${log.versionId} (${log.size} B)`);
}

function positiveInt(value: unknown, flag: string): number | undefined | string {
  if (value === undefined) return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : `${flag} takes a whole number; got "${String(value)}".`;
}

export const computeCommand: CliCommand = {
  name: 'compute',
  summary: 'Run jobs on Slurm clusters and SSH hosts: targets, submit, status, result, cancel',
  usage: USAGE,
  options: {
    target: { type: 'string' },
    session: { type: 'string' },
    language: { type: 'string' },
    'script-file': { type: 'string' },
    inputs: { type: 'string' },
    outputs: { type: 'string' },
    cpus: { type: 'string' },
    'memory-mb': { type: 'string' },
    'time-min': { type: 'string' },
    gpus: { type: 'string' },
    partition: { type: 'string' },
    wait: { type: 'string' },
    json: { type: 'boolean' },
  },
  needsCore: true,
  async run({ core, values, positionals, io }) {
    const [action, arg, ...extra] = positionals;
    // One line naming the problem and where the usage is.
    const bad = usageError(io, 'compute');
    if (extra.length) return bad(`unexpected arguments: ${extra.join(' ')}.`);
    const compute = core!.compute;
    const session = values.session as string | undefined;
    const sessionProblem = sessionOptionProblem(session);
    if (sessionProblem) return bad(sessionProblem);
    const emit = (value: unknown, text: () => void) => (values.json ? io.out(JSON.stringify(value, null, 2)) : text());
    switch (action) {
      case 'targets': {
        if (arg) return bad(`targets takes no argument; got "${arg}".`);
        const targets = compute.listTargets();
        emit(targets, () => {
          if (!targets.length) io.out(`No compute target is configured. Add one to ${compute.targets.file} (see README, "Adding a cluster").`);
          for (const t of targets) io.out(`${t.name.padEnd(20)} ${t.kind.padEnd(6)} ${t.where}${t.partition ? `  partition ${t.partition}` : ''}${t.account ? `  account ${t.account}` : ''}`);
        });
        return 0;
      }
      case 'submit': {
        if (arg) return bad(`submit takes options only; got "${arg}".`);
        const target = values.target as string | undefined;
        const language = values.language as string | undefined;
        const scriptFile = values['script-file'] as string | undefined;
        if (!target || !session || !language || !scriptFile) return bad('submit needs --target, --session, --language and --script-file.');
        if (!['python', 'r', 'shell'].includes(language)) return bad(`--language is python, r or shell; got "${language}".`);
        const numbers: Record<string, number | undefined> = {};
        for (const [flag, key] of [['cpus', 'cpus'], ['memory-mb', 'memoryMb'], ['time-min', 'timeLimitMin'], ['gpus', 'gpus']] as const) {
          const n = positiveInt(values[flag], `--${flag}`);
          if (typeof n === 'string') return bad(n);
          numbers[key] = n;
        }
        let script: string;
        try {
          script = fs.readFileSync(scriptFile, 'utf8');
        } catch (error) {
          return bad(`cannot read the script file ${scriptFile} (${(error as NodeJS.ErrnoException).code ?? 'error'}).`);
        }
        const list = (v: unknown) => String(v ?? '').split(',').map((s) => s.trim()).filter(Boolean);
        const job = await compute.submit({
          sessionId: session,
          runId: null,
          target,
          language: language as ComputeLanguage,
          script,
          inputs: list(values.inputs).map((i) => (/^av_[a-z2-7]{16}$/.test(i) ? { artifactVersion: i } : { workspace: i })),
          outputs: list(values.outputs),
          resources: { ...numbers, ...(values.partition ? { partition: values.partition as string } : {}) },
        });
        emit(job, () => report(job, io));
        return 0;
      }
      case 'status': {
        if (arg !== undefined && !JOB.test(arg)) return bad(`"${arg}" is not a job id (job_ and 16 letters).`);
        if (arg) {
          const job = await compute.refresh(arg);
          emit(job, () => report(job, io));
          return 0;
        }
        // A mistyped session is an error, not "no compute job in session …".
        if (session) core!.ledger.sessions.require(session);
        // Asks every open job's target once (harvesting what finished), then lists.
        await compute.pollOpen();
        const jobs = compute.list(session);
        emit(jobs, () => {
          if (!jobs.length) io.out(session ? `No compute job in session ${session}.` : 'No compute job yet.');
          for (const j of jobs) io.out(line(j));
        });
        return 0;
      }
      case 'result': {
        if (!arg || !JOB.test(arg)) return bad('result needs a job id (job_ and 16 letters).');
        const wait = positiveInt(values.wait, '--wait');
        if (typeof wait === 'string') return bad(wait);
        const job = await compute.result(arg, wait ?? 0);
        emit(job, () => report(job, io));
        if (!job.harvested) {
          io.err(`openai4s compute: job ${arg} has not finished (${job.state}); wait longer with --wait <seconds>.`);
          return 3;
        }
        if (job.state === 'completed') return 0;
        io.err(`openai4s compute: job ${arg} ended ${job.state}${job.exitCode === null ? '' : ` (exit ${job.exitCode})`}${job.reason ? `: ${job.reason}` : ''}.`);
        return 1;
      }
      case 'cancel': {
        if (!arg || !JOB.test(arg)) return bad('cancel needs a job id (job_ and 16 letters).');
        const job = await compute.cancel(arg);
        emit(job, () => report(job, io));
        return 0;
      }
      default:
        return bad(action ? `unknown action "${action}": use targets, submit, status, result or cancel.` : 'an action is needed: targets, submit, status, result or cancel.');
    }
  },
};
