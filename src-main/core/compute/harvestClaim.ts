import os from 'node:os';
import type { ComputeJobEvent } from '../ledger/computeJobsRepo';

/**
 * Who harvests a finished job. The terminal state event carries the claim (the poller
 * instance, and the process and machine it runs in). A claim older than HARVEST_CLAIM_MS
 * is presumed dead; so is one whose process on this machine is gone (the app or the CLI
 * killed mid-harvest), so the next start harvests at once instead of ten minutes later.
 */

/** A harvest claim older than this is presumed dead (its process stopped mid-harvest on another machine). */
export const HARVEST_CLAIM_MS = 10 * 60_000;

export interface HarvestClaim {
  harvestClaim: string;
  claimPid: number;
  claimHost: string;
}

export function harvestClaim(instance: string): HarvestClaim {
  return { harvestClaim: instance, claimPid: process.pid, claimHost: os.hostname() };
}

/** Whether a process of this machine is still there (one we may not signal is). */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Claims made up to this time no longer hold (the `since` of ComputeJobsRepo.claimHarvest).
 * A dead claim is stale up to its own time only: a claim made after it, by a live poller
 * these events may not show yet, still holds.
 */
export function claimsStaleBefore(events: ComputeJobEvent[], now = Date.now()): string {
  const aged = new Date(now - HARVEST_CLAIM_MS).toISOString();
  const last = [...events].reverse().find((e) => e.kind === 'state' && typeof e.data.harvestClaim === 'string');
  const pid = last?.data.claimPid;
  const deadHere = typeof pid === 'number' && pid !== process.pid && last?.data.claimHost === os.hostname() && !processAlive(pid);
  return deadHere && last.at > aged ? last.at : aged;
}
