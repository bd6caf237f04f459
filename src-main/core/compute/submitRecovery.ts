import fs from 'node:fs';
import os from 'node:os';
import type { ComputeTargetConfig } from '../../../src-preload/contract/compute';
import { errorMessage } from '../shared/errorMessage';
import { processAlive } from './harvestClaim';
import { STDERR_LOG, type Scheduler } from './scheduler';
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
  /** When its process started ("<boot id>:<start ticks>", Linux): a later process given the same pid is not it. */
  started?: string;
}

/**
 * A process's start, as the kernel keeps it: the boot and the clock tick it started at. Null
 * where /proc does not say (another OS, a process gone). Read synchronously: two small files.
 */
export function processIdentity(pid: number): string | null {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Field 22 (starttime) counts from the field after the command name, which may hold spaces and ")".
    const ticks = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
    const boot = fs.readFileSync('/proc/sys/kernel/random/boot_id', 'utf8').trim();
    return ticks && /^\d+$/.test(ticks) && boot ? `${boot}:${ticks}` : null;
  } catch {
    return null;
  }
}

export function submitterStamp(instance: string): Submitter {
  const started = processIdentity(process.pid);
  return { instance, pid: process.pid, host: os.hostname(), ...(started ? { started } : {}) };
}

/**
 * Whether the submission may still be going on elsewhere. A submitter on this machine is
 * asked directly (its process is there or not); one on another machine, another service of
 * this process, or a row from before submitters were recorded gets the grace period.
 */
export function submitterMayBeAlive(submitter: Submitter | undefined, createdAt: string, now = Date.now()): boolean {
  const inGrace = now - Date.parse(createdAt) < SUBMIT_GRACE_MS;
  if (!submitter || submitter.host !== os.hostname() || submitter.pid === process.pid) return inGrace;
  if (!processAlive(submitter.pid)) return false;
  // Its pid is taken; by the submitter only if that process started when the stamp says (a crash or a reboot frees pids for others).
  const holder = submitter.started ? processIdentity(submitter.pid) : null;
  return holder === null || holder === submitter.started;
}

/** The job folder's path under a target's work root ("~/x" and a relative root are under the home folder). */
export function remoteJobRoot(target: ComputeTargetConfig): string {
  // Quoted, a "~" would be a folder of that name.
  return (target.workRoot ?? 'openai4s-jobs').replace(/^~(\/|$)/, '') || '.';
}

/** How long a launched job that never reported its process id is waited for, from its submission. */
export const PID_WAIT_MS = 30 * 60_000;

/**
 * A job the target cannot say is running or gone (its launch recorded no pid): waited for,
 * with the reason shown, until `waitMs` after its submission; then it fails, saying what
 * happened, where its log is and what to check. Answers the event to record.
 */
export function unsureOutcome(found: { reason: string; remoteDir: string | null }, where: string, createdAt: string, waitMs: number, now = Date.now()): { kind: 'wait' | 'fail'; reason: string } {
  const log = found.remoteDir ? `its log is ${found.remoteDir}/${STDERR_LOG} on ${where}` : `its job folder on ${where} holds its log`;
  const minutes = Math.max(1, Math.round(waitMs / 60_000));
  if (now - Date.parse(createdAt) < waitMs) return { kind: 'wait', reason: `${found.reason}; ${log}. The app waits for it and gives up ${minutes} min after submission` };
  return { kind: 'fail', reason: `${found.reason}; it did not report its process id within ${minutes} min of submission, so the app cannot follow or cancel it and marks it failed. ${log[0]!.toUpperCase()}${log.slice(1)}: check there whether it still runs (stop it if so), then submit it again` };
}

export type Recovery =
  | { kind: 'adopted'; schedulerJobId: string; remoteDir: string }
  | { kind: 'absent'; reason: string }
  | { kind: 'unsure'; reason: string; remoteDir: string | null }
  | { kind: 'unreachable'; message: string };

export interface RecoveryRequest {
  jobId: string;
  createdAt: string;
  /** The local job folder (for a target on this machine, also where it runs). */
  localDir: string;
  /** The target as the job was submitted (its workRoot says where the job folder is). */
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
    return { kind: 'unsure', reason: found.unsure, remoteDir: dir };
  } catch (error) {
    return { kind: 'unreachable', message: `could not ask ${req.transport.where} whether the interrupted submission reached it (${errorMessage(error)}); the job is not declared lost while the target cannot answer` };
  }
}
