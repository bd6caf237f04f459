import { z } from 'zod';
import { route } from './define';

/**
 * Compute targets and jobs (issue 23): a Slurm cluster (this machine or a login node over
 * SSH) or a host reached over SSH runs a job script with staged inputs; its declared
 * outputs come back as artifact versions with the job's provenance.
 */

export type ComputeTargetKind = 'slurm' | 'ssh';

/** Resources a job asks for; a target's defaults fill what a job leaves out. */
export interface ComputeResources {
  cpus?: number;
  /** Megabytes. */
  memoryMb?: number;
  /** Wall-clock limit in minutes (Slurm's unit). */
  timeLimitMin?: number;
  gpus?: number;
  partition?: string;
}

/**
 * One configured target (`<data root>/compute/targets.json`, edited in Settings). It names
 * key files, never holds a key or a password: authentication is the user's OpenSSH setup
 * (keys, agent, ~/.ssh/config), and host keys are checked against known_hosts.
 */
export interface ComputeTargetConfig {
  name: string;
  kind: ComputeTargetKind;
  /** SSH host (required for `ssh`; for `slurm`, absent = the Slurm commands of this machine). */
  host?: string;
  port?: number;
  user?: string;
  /** Path of a private key file on this machine (passed to ssh -i; never read by the app). */
  identityFile?: string;
  /** A known_hosts file to check the host key against (default: the user's own). */
  knownHostsFile?: string;
  partition?: string;
  account?: string;
  defaults?: ComputeResources;
  /** Where job folders are made on the target (default: `openai4s-jobs` under the remote home, or the data root locally). */
  workRoot?: string;
  /** Interpreters on the target (default python3, Rscript, bash). */
  python?: string;
  rscript?: string;
}

export interface ComputeTargetView extends ComputeTargetConfig {
  /** Where the Slurm or SSH commands run: "this machine" or user@host:port. */
  where: string;
}

/** Slurm's job states, lower-cased; an `ssh` job uses the same names. */
export type ComputeJobState = 'pending' | 'running' | 'completed' | 'failed' | 'cancelled' | 'timeout' | 'out_of_memory' | 'node_fail';

export const TERMINAL_JOB_STATES: readonly ComputeJobState[] = ['completed', 'failed', 'cancelled', 'timeout', 'out_of_memory', 'node_fail'];

export type ComputeLanguage = 'python' | 'r' | 'shell';

/** An input staged into the job folder: a workspace file or an artifact version. */
export interface ComputeInput {
  /** Where it lands in the job folder (relative). */
  path: string;
  source: 'workspace' | 'artifact';
  /** The workspace path or the artifact version id it came from. */
  from: string;
  sha256: string;
  size: number;
  /** The artifact version (source artifact) and its evidence id. */
  versionId?: string;
  evidenceId?: string;
}

export interface ComputeHarvestedOutput {
  path: string;
  versionId: string;
  evidenceId: string;
  sha256: string;
  size: number;
}

export interface ComputeJobView {
  id: string;
  sessionId: string;
  target: string;
  targetKind: ComputeTargetKind;
  language: ComputeLanguage;
  scriptSha256: string;
  /** The script's first lines (what the approval showed). */
  scriptHead: string;
  inputs: ComputeInput[];
  outputs: string[];
  resources: ComputeResources;
  createdAt: string;
  /** The scheduler's id (Slurm job id, or the process id on an ssh host); null before submission. */
  schedulerJobId: string | null;
  /** The job folder on the target. */
  remoteDir: string | null;
  state: ComputeJobState;
  /** Why it is in this state (Slurm's reason, a missing output, a submission error). */
  reason: string | null;
  exitCode: number | null;
  node: string | null;
  partition: string | null;
  elapsedSeconds: number | null;
  startedAt: string | null;
  endedAt: string | null;
  /** True once the outputs and logs were brought back (or found missing). */
  harvested: boolean;
  outputsHarvested: ComputeHarvestedOutput[];
  missingOutputs: string[];
  /** stdout and stderr kept as artifact versions (evidence). */
  logs: { stdout: ComputeHarvestedOutput | null; stderr: ComputeHarvestedOutput | null };
  /** The last time the target was asked, and what went wrong if it could not be reached. */
  lastPolledAt: string | null;
  pollError: string | null;
  /**
   * The target stayed unreachable past the limit, so automatic polling of this job stopped
   * (its state on the target is unknown, not failed); any refresh asks again and a success resumes it.
   */
  unreachable: boolean;
}

/** A job's stdout and stderr: the kept evidence once harvested, else the tail read from the target. */
export interface ComputeJobLogs {
  jobId: string;
  stdout: string;
  stderr: string;
  /** Where the text came from: the harvested evidence, or the target while the job runs. */
  source: 'harvested' | 'target';
  /** Only the last bytes are shown. */
  truncated: boolean;
}

const targetName = z.string().regex(/^[a-z0-9][a-z0-9_-]{0,39}$/, 'a target name is 1-40 lower-case letters, digits, "_" or "-"');
const jobId = z.string().regex(/^job_[a-z2-7]{16}$/, 'a job id is "job_" followed by 16 base32 letters');
const sessionId = z.string().regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id is 1-128 letters, digits, "_" or "-"');

export const computeRoutes = {
  /** The configured targets (`<data root>/compute/targets.json`). */
  'compute.targets': route<ComputeTargetView[]>()(z.object({}).strict().default({})),
  /** Adds or replaces a target by name (validated in main: a key or password in it is refused). */
  'compute.targets.save': route<ComputeTargetView[]>()(z.object({ target: z.record(z.string(), z.unknown()) }).strict()),
  'compute.targets.remove': route<ComputeTargetView[]>()(z.object({ name: targetName }).strict()),
  /** A session's jobs, newest first, as last polled (the poller keeps them current). */
  'compute.jobs': route<ComputeJobView[]>()(z.object({ sessionId }).strict()),
  /** Asks the target now (harvesting a finished job). */
  'compute.job.refresh': route<ComputeJobView>()(z.object({ jobId }).strict()),
  'compute.job.cancel': route<ComputeJobView>()(z.object({ jobId }).strict()),
  'compute.job.logs': route<ComputeJobLogs>()(z.object({ jobId }).strict()),
};
