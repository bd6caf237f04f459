import { AppError } from '../../../src-preload/contract/errors';
import { mapSlurmState, META_DIR, SCHEDULER_ID_FILE, slurmJobName, type FindRequest, type FindResult, parseExitCode, parseSlurmDuration, slurmTime, STDERR_LOG, STDOUT_LOG, WRAPPER, type Scheduler, type SchedulerStatus, type SubmitRequest } from './scheduler';
import type { CommandResult, Transport } from './transport';

/**
 * Slurm through its own commands (sbatch, scontrol, sacct, scancel), on this machine or on
 * a login node over SSH. A finished job is read from the controller while it still holds
 * it (MinJobAge), then from accounting (sacct); when neither knows it any more, the job
 * folder's exit record is the last witness, and without one the job is reported failed
 * with that reason: never a guessed success.
 */

function lastLine(text: string): string {
  return text.trim().split('\n').filter(Boolean).pop() ?? '';
}

function failed(what: string, where: string, r: CommandResult): AppError {
  const detail = lastLine(r.stderr) || lastLine(r.stdout) || `exit ${r.code}`;
  const hint = r.code === 127 ? ` (is Slurm's client installed on ${where}? its commands must be on PATH)` : '';
  return new AppError('unavailable', `${what} failed on ${where}: ${detail}${hint}.`);
}

/**
 * A path as sbatch's --output/--error value: sbatch expands "%j", "%x"… there ("%%" is a "%"),
 * so a job folder under "100%data" would send the logs elsewhere and fail the launch. A
 * path holding "\\" is taken literally by sbatch, so it is left as it is.
 */
export function slurmFilePattern(p: string): string {
  return p.includes('\\') ? p : p.replace(/%/g, '%%');
}

/** `scontrol show job -o` prints Key=Value pairs on one line. */
export function parseScontrol(line: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const m of line.matchAll(/(\S+?)=(\S*)/g)) fields[m[1]!] ??= m[2]!;
  return fields;
}

export function statusFromScontrol(f: Record<string, string>): SchedulerStatus {
  const { state, note } = mapSlurmState(f.JobState ?? 'UNKNOWN');
  const { exitCode, signal } = parseExitCode(f.ExitCode);
  const reason = f.Reason && f.Reason !== 'None' ? f.Reason : null;
  const terminal = state !== 'pending' && state !== 'running';
  return {
    state,
    exitCode: terminal ? exitCode : null,
    node: f.NodeList && f.NodeList !== '(null)' ? f.NodeList : null,
    partition: f.Partition ?? null,
    elapsedSeconds: parseSlurmDuration(f.RunTime),
    startedAt: state === 'pending' ? null : slurmTime(f.StartTime),
    endedAt: terminal ? slurmTime(f.EndTime) : null,
    reason: [note, reason, signal ? `signal ${signal}` : null].filter(Boolean).join('; ') || null,
  };
}

const SACCT_FIELDS = ['JobID', 'State', 'ExitCode', 'NodeList', 'Partition', 'ElapsedRaw', 'Start', 'End'];

export function statusFromSacct(line: string): SchedulerStatus | null {
  const [, stateWord, exit, node, partition, elapsed, start, end] = line.split('|');
  if (!stateWord) return null;
  const { state, note } = mapSlurmState(stateWord);
  const { exitCode, signal } = parseExitCode(exit);
  const terminal = state !== 'pending' && state !== 'running';
  return {
    state,
    exitCode: terminal ? exitCode : null,
    node: node && node !== 'None assigned' ? node : null,
    partition: partition || null,
    elapsedSeconds: elapsed && /^\d+$/.test(elapsed) ? Number(elapsed) : null,
    startedAt: slurmTime(start),
    endedAt: terminal ? slurmTime(end) : null,
    reason: [note, signal ? `signal ${signal}` : null, stateWord.includes(' by ') ? stateWord.toLowerCase() : null].filter(Boolean).join('; ') || null,
  };
}

export class SlurmScheduler implements Scheduler {
  constructor(private readonly transport: Transport) {}

  async submit(request: SubmitRequest): Promise<string> {
    const r = request.resources;
    const argv = [
      'sbatch',
      '--parsable',
      `--job-name=${slurmJobName(request.jobId)}`,
      `--chdir=${request.dir}`,
      `--output=${slurmFilePattern(`${request.dir}/${STDOUT_LOG}`)}`,
      `--error=${slurmFilePattern(`${request.dir}/${STDERR_LOG}`)}`,
      ...(r.timeLimitMin ? [`--time=${r.timeLimitMin}`] : []),
      ...(r.cpus ? [`--cpus-per-task=${r.cpus}`] : []),
      ...(r.memoryMb ? [`--mem=${r.memoryMb}M`] : []),
      ...(r.gpus ? [`--gres=gpu:${r.gpus}`] : []),
      ...(r.partition ? [`--partition=${r.partition}`] : []),
      ...(request.account ? [`--account=${request.account}`] : []),
      `${request.dir}/${WRAPPER}`,
    ];
    const result = await this.transport.exec(argv);
    if (result.code !== 0) throw failed('sbatch', this.transport.where, result);
    // --parsable prints "<id>" or "<id>;<cluster>".
    const id = /^(\d+)(?:;\S+)?$/.exec(lastLine(result.stdout))?.[1];
    if (!id) throw new AppError('unavailable', `sbatch on ${this.transport.where} answered "${lastLine(result.stdout)}", not a job id.`);
    return id;
  }

  /**
   * An interrupted submission, looked up by the job's unique name: the controller (squeue,
   * every state it still holds), then accounting (sacct, when the cluster keeps it), then the
   * id the wrapper wrote in the job folder once it started (a job the controller forgot).
   * Absent only when the controller answered and none of them knows it.
   */
  async find(request: FindRequest): Promise<FindResult> {
    const name = slurmJobName(request.jobId);
    const listed = await this.transport.exec(['squeue', '-h', '--states=all', `--name=${name}`, '-o', '%i']);
    if (listed.code !== 0) throw failed('squeue', this.transport.where, listed);
    const queued = listed.stdout.split('\n').map((l) => l.trim()).find((l) => /^\d+$/.test(l));
    if (queued) return { found: queued };
    // sacct reads --starttime in the cluster's time zone: a day earlier than the row covers every zone (the name is unique, so a wider window finds nothing else).
    const start = new Date(Date.parse(request.since) - 86_400_000).toISOString().slice(0, 19);
    const acct = await this.transport.exec(['sacct', '-n', '-X', '-P', `--name=${name}`, `--starttime=${start}`, '--format=JobID']);
    const accounted = acct.code === 0 ? acct.stdout.split('\n').map((l) => l.trim()).find((l) => /^\d+$/.test(l)) : undefined;
    if (accounted) return { found: accounted };
    if (request.dir) {
      // Only a record that is not there means "never started": one that cannot be read (a dropped connection, an I/O error) is a failure to ask.
      const file = `${request.dir}/${SCHEDULER_ID_FILE}`;
      const read = await this.transport.exec(['bash', '-c', '[ -e "$1" ] || exit 0; cat -- "$1"', 'o4s-find-id', file]);
      if (read.code !== 0) throw failed(`Reading ${file}`, this.transport.where, read);
      const id = /^(\d+)\s*$/.exec(read.stdout)?.[1];
      if (id) return { found: id };
    }
    return { absent: `Slurm on ${this.transport.where} knows no job named ${name} and its folder shows it never started` };
  }

  async query(id: string, dir: string): Promise<SchedulerStatus> {
    const shown = await this.transport.exec(['scontrol', 'show', 'job', '-o', id]);
    if (shown.code === 0 && /JobState=/.test(shown.stdout)) return statusFromScontrol(parseScontrol(lastLine(shown.stdout)));
    if (shown.code !== 0 && !/invalid job id/i.test(shown.stderr)) throw failed('scontrol show job', this.transport.where, shown);
    // The controller has forgotten it (MinJobAge passed): accounting, if the cluster keeps it.
    const acct = await this.transport.exec(['sacct', '-j', id, '-X', '-n', '-P', `--format=${SACCT_FIELDS.join(',')}`]);
    const line = acct.code === 0 ? acct.stdout.split('\n').find((l) => l.startsWith(`${id}|`)) : undefined;
    const fromAcct = line ? statusFromSacct(line) : null;
    if (fromAcct) return fromAcct;
    return this.fromExitRecord(id, dir, acct.code === 0 ? 'sacct has no record of it' : `sacct is unavailable (${lastLine(acct.stderr) || `exit ${acct.code}`})`);
  }

  /** The wrapper's own record of how the script ended, when Slurm no longer knows the job. */
  private async fromExitRecord(id: string, dir: string, why: string): Promise<SchedulerStatus> {
    const read = await this.transport.exec(['cat', `${dir}/${META_DIR}/exit_code`]);
    const code = read.code === 0 && /^\d+\s*$/.test(read.stdout) ? Number(read.stdout.trim()) : null;
    const base = { node: null, partition: null, elapsedSeconds: null, startedAt: null, endedAt: null };
    if (code === null) {
      return { ...base, state: 'failed', exitCode: null, reason: `Slurm no longer knows job ${id} and ${why}; the job left no exit record, so it did not finish normally` };
    }
    return { ...base, state: code === 0 ? 'completed' : 'failed', exitCode: code, reason: `read from the job's exit record: Slurm no longer knows job ${id} and ${why}` };
  }

  async cancel(id: string): Promise<void> {
    const r = await this.transport.exec(['scancel', id]);
    if (r.code !== 0) throw failed('scancel', this.transport.where, r);
  }
}
