import fs from 'node:fs';
import os from 'node:os';
import type { ComputeTargetConfig } from '../../../src-preload/contract/compute';
import { errorMessage } from '../shared/errorMessage';
import { processAlive } from './harvestClaim';
import type { Scheduler } from './scheduler';
import type { Transport } from './transport';

/**
 * A job row without its `submitted` event: the submission is under way in some process, or
 * the process that made it died (kill -9, a crash) somewhere between writing the row and
 * recording the target's id, possibly after the target took the job. The target is asked
 * before anything is concluded: a job it knows is adopted (polled and harvested like any
 * other), a job it can say it never took is declared never submitted at once, and while it
 * cannot be asked the job waits. Nothing here submits: no duplicate, whatever the answer.
 */

/** A row without a submitter this process can check is left to its submitter this long (uploads take time). */
export const SUBMIT_GRACE_MS = 15 * 60_000;

/** Who is submitting a job: written in the job's spec with its row, so a restart can tell a live submission from a dead one. */
export interface Submitter {
  instance: string;
  pid: number;
  host: string;
}

export function submitterStamp(instance: string): Submitter {
  return { instance, pid: process.pid, host: os.hostname() };
}

/**
 * Whether the submission may still be going on elsewhere. A submitter on this machine is
 * asked directly (its process is there or not); one on another machine, another service of
 * this process, or a row from before submitters were recorded gets the grace period.
 */
export function submitterMayBeAlive(submitter: Submitter | undefined, createdAt: string, now = Date.now()): boolean {
  const inGrace = now - Date.parse(createdAt) < SUBMIT_GRACE_MS;
  if (!submitter || submitter.host !== os.hostname() || submitter.pid === process.pid) return inGrace;
  return processAlive(submitter.pid);
}

/** The job folder's path under a target's work root ("~/x" and a relative root are under the home folder). */
export function remoteJobRoot(target: ComputeTargetConfig): string {
  // Quoted, a "~" would be a folder of that name.
  return (target.workRoot ?? 'openai4s-jobs').replace(/^~(\/|$)/, '') || '.';
}

export type Recovery =
  | { kind: 'adopted'; schedulerJobId: string; remoteDir: string }
  | { kind: 'absent'; reason: string }
  | { kind: 'unsure'; reason: string }
  | { kind: 'unreachable'; message: string };

export interface RecoveryRequest {
  jobId: string;
  createdAt: string;
  /** The local job folder (for a target on this machine, also where it runs). */
  localDir: string;
  target: ComputeTargetConfig;
  transport: Transport;
  scheduler: Scheduler;
}

/** The job folder on the target as the submission made it (never created here), or null when it is not there. */
async function existingJobDir(req: RecoveryRequest): Promise<string | null> {
  if (!req.transport.remote) return fs.existsSync(req.localDir) ? req.localDir : null;
  const r = await req.transport.exec(['bash', '-c', 'cd -- "$1" 2>/dev/null || exit 3; pwd', 'o4s-finddir', `${remoteJobRoot(req.target)}/${req.jobId}`]);
  const dir = r.stdout.trim().split('\n').pop() ?? '';
  if (r.code === 3) return null;
  if (r.code !== 0 || !dir.startsWith('/')) throw new Error(r.stderr.trim() || `exit ${r.code}`);
  return dir;
}

/** Asks the target about an interrupted submission (the caller has made sure its submitter is gone). */
export async function recoverSubmission(req: RecoveryRequest): Promise<Recovery> {
  try {
    const dir = await existingJobDir(req);
    const found = await req.scheduler.find({ jobId: req.jobId, dir, since: req.createdAt });
    if ('found' in found) {
      // A Slurm job found by name whose folder is gone still has its expected path (the harvest says what is missing).
      const remoteDir = dir ?? (req.transport.remote ? `${remoteJobRoot(req.target)}/${req.jobId}` : req.localDir);
      return { kind: 'adopted', schedulerJobId: found.found, remoteDir };
    }
    if ('absent' in found) return { kind: 'absent', reason: found.absent };
    return { kind: 'unsure', reason: found.unsure };
  } catch (error) {
    return { kind: 'unreachable', message: `could not ask ${req.transport.where} whether the interrupted submission reached it (${errorMessage(error)}); the job is not declared lost while the target cannot answer` };
  }
}
