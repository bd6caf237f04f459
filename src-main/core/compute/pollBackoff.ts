import type { ComputeJobEvent } from '../ledger/computeJobsRepo';
import { pollTrouble } from './jobState';

/**
 * How the poller treats a target that does not answer: each failed poll doubles the wait
 * before the next (from the poll interval up to 60 intervals), and once the target has
 * failed for `unreachableMs` over a few tries the job is marked unreachable, with a message
 * naming the target and the fix. Pure: the service records what this decides.
 */

const MAX_BACKOFF_INTERVALS = 60;
/** Polling stops only after at least this many failed polls (and the unreachable time). */
const MIN_FAILURES_TO_STOP = 3;

/** How long to wait after `failures` failed polls in a row before the poller asks again. */
export function retryDelay(pollMs: number, failures: number): number {
  return pollMs * Math.min(2 ** failures, MAX_BACKOFF_INTERVALS);
}

/** Whether the automatic poller should ask about a job now, given its events. */
export function pollDue(events: ComputeJobEvent[], pollMs: number, now = Date.now()): boolean {
  const { failures, lastAt } = pollTrouble(events);
  return !failures || !lastAt || now - Date.parse(lastAt) >= retryDelay(pollMs, failures);
}

export interface PollFailure {
  jobId: string;
  events: ComputeJobEvent[];
  targetName: string;
  where: string;
  message: string;
  unreachableMs: number;
}

/** The `poll_error` event data of one more failed poll (marked unreachable once past the limit). */
export function pollFailureData(f: PollFailure, now = Date.now()): Record<string, unknown> {
  const trouble = pollTrouble(f.events);
  const failures = trouble.failures + 1;
  const since = trouble.since ?? new Date(now).toISOString();
  const seconds = (now - Date.parse(since)) / 1000;
  const stop = failures >= MIN_FAILURES_TO_STOP && seconds * 1000 >= f.unreachableMs;
  if (!stop) return { message: f.message, failures, since };
  const lasted = seconds < 90 ? `${Math.round(seconds)} s` : `${Math.round(seconds / 60)} min`;
  const message =
    `target "${f.targetName}" (${f.where}) could not be polled for ${lasted} over ${failures} tries (last: ${f.message}); automatic polling of this job stopped, and the job itself may still be running there. ` +
    `Fix the target's connection (host, port, user, identity file, known_hosts) in Settings → Compute or compute/targets.json in the data root, or the network, then retry the job (Retry in the Jobs panel, compute_status, or \`openai4s compute status ${f.jobId}\`).`;
  return { message, failures, since, unreachable: true };
}
