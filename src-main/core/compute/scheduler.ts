import type { ComputeJobState, ComputeJobView, ComputeResources } from '../../../src-preload/contract/compute';

/**
 * What a scheduler (Slurm, or a plain SSH host) reports of a job: the job view's own fields,
 * so a report and the view it becomes are one shape. `reason` is the scheduler's (Slurm's
 * Reason=, a signal, "no exit record").
 */
export type SchedulerStatus = Pick<ComputeJobView, 'state' | 'exitCode' | 'node' | 'partition' | 'elapsedSeconds' | 'startedAt' | 'endedAt' | 'reason'>;

export interface SubmitRequest {
  jobId: string;
  /** The job folder on the target (absolute). */
  dir: string;
  resources: ComputeResources;
  account?: string;
}

/**
 * What the target says of a job whose submission was interrupted (the app killed after the
 * target took it, before the ledger recorded its id): `found` with its id, `absent` when the
 * target can say it never took it, `unsure` when it cannot say yet. Throws when it cannot be asked.
 */
export type FindResult = { found: string } | { absent: string } | { unsure: string };

export interface FindRequest {
  jobId: string;
  /** The job folder on the target (absolute), or null when it does not exist there. */
  dir: string | null;
  /** When the job row was written: nothing older can be this job. */
  since: string;
}

export interface Scheduler {
  submit(request: SubmitRequest): Promise<string>;
  /** Looks for the job on the target by what the submission left there (its name, its folder); never submits. */
  find(request: FindRequest): Promise<FindResult>;
  /** The job's state now; never guessed: a job the scheduler no longer knows is reported with why. */
  query(schedulerJobId: string, dir: string): Promise<SchedulerStatus>;
  cancel(schedulerJobId: string, dir: string): Promise<void>;
}

/** The job folder's bookkeeping subfolder (wrapper, logs, exit record); outputs may not live in it. */
export const META_DIR = '.openai4s';
export const STDOUT_LOG = `${META_DIR}/stdout.log`;
export const STDERR_LOG = `${META_DIR}/stderr.log`;
export const WRAPPER = `${META_DIR}/run.sh`;
/** Where a Slurm job's wrapper writes its own job id (found again after a lost submission). */
export const SCHEDULER_ID_FILE = `${META_DIR}/scheduler_job_id`;

/** The name a job is submitted under on Slurm: unique, so an interrupted submission can be found by it. */
export const slurmJobName = (jobId: string): string => `o4s-${jobId}`;

/** "1-02:03:04", "02:03:04", "03:04" (Slurm's elapsed formats) -> seconds. */
export function parseSlurmDuration(text: string | undefined): number | null {
  if (!text || /^(UNLIMITED|INVALID|Partition_Limit|N\/A)$/i.test(text)) return null;
  const m = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d+)$/.exec(text.trim());
  if (!m) return null;
  const [, d, h, min, s] = m;
  return Number(d ?? 0) * 86400 + Number(h ?? 0) * 3600 + Number(min) * 60 + Number(s);
}

/** A Slurm time or timestamp ("2026-12-01T08:10:50", "Unknown", "None") -> ISO or null. */
export function slurmTime(text: string | undefined): string | null {
  if (!text || !/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/.test(text)) return null;
  const d = new Date(text);
  return Number.isNaN(d.getTime()) ? null : d.toISOString();
}

const SLURM_STATES: Record<string, ComputeJobState> = {
  PENDING: 'pending',
  CONFIGURING: 'pending',
  REQUEUED: 'pending',
  REQUEUE_FED: 'pending',
  REQUEUE_HOLD: 'pending',
  RESV_DEL_HOLD: 'pending',
  SUSPENDED: 'running',
  RUNNING: 'running',
  COMPLETING: 'running',
  STAGE_OUT: 'running',
  SIGNALING: 'running',
  RESIZING: 'running',
  COMPLETED: 'completed',
  FAILED: 'failed',
  BOOT_FAIL: 'failed',
  DEADLINE: 'timeout',
  PREEMPTED: 'failed',
  REVOKED: 'failed',
  SPECIAL_EXIT: 'failed',
  CANCELLED: 'cancelled',
  TIMEOUT: 'timeout',
  OUT_OF_MEMORY: 'out_of_memory',
  NODE_FAIL: 'node_fail',
};

/** Slurm's state word ("CANCELLED by 0", "RUNNING") -> ours; unknown words are failures named as such. */
export function mapSlurmState(word: string): { state: ComputeJobState; note: string | null } {
  const head = word.trim().split(/\s+/)[0]!.replace(/\+$/, '').toUpperCase();
  const state = SLURM_STATES[head];
  if (state) return { state, note: head === 'PREEMPTED' || head === 'BOOT_FAIL' || head === 'DEADLINE' ? head : null };
  return { state: 'failed', note: `unrecognised Slurm state ${head}` };
}

/** Slurm's "3:0" (exit code : signal) -> one number: the exit code, or 128 + signal when a signal ended it. */
export function parseExitCode(text: string | undefined): { exitCode: number | null; signal: number | null } {
  const m = /^(\d+):(\d+)$/.exec(text?.trim() ?? '');
  if (!m) return { exitCode: null, signal: null };
  const code = Number(m[1]);
  // Above 64 it is Slurm's own marker (0:125 on OUT_OF_MEMORY), not a signal: the state says what happened.
  const signal = Number(m[2]) <= 64 ? Number(m[2]) : 0;
  return { exitCode: signal && !code ? 128 + signal : code, signal: signal || null };
}
