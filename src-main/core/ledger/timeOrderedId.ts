import { randomUUID } from 'node:crypto';

let lastMs = 0;
let seq = 0;

/**
 * A UUID (version 7) whose text sorts by creation time: 48 bits of Unix milliseconds, a
 * 12-bit counter for ids made in the same millisecond (monotonic within this process),
 * then random bits. Used as the key of rows written in bursts (a cell's host calls), so
 * that each insert lands at the end of the primary-key index instead of on a random page:
 * a group commit of a burst then dirties a few pages, not one per row.
 */
export function timeOrderedId(now: number = Date.now()): string {
  if (now > lastMs) {
    lastMs = now;
    seq = 0;
  } else if (++seq > 0xfff) {
    lastMs += 1; // more than 4096 ids in one millisecond: borrow the next one
    seq = 0;
  }
  const ts = lastMs.toString(16).padStart(12, '0');
  // randomUUID(): xxxxxxxx-xxxx-4xxx-Vxxx-xxxxxxxxxxxx; its variant and last 62 random bits are kept.
  return `${ts.slice(0, 8)}-${ts.slice(8, 12)}-7${seq.toString(16).padStart(3, '0')}${randomUUID().slice(18)}`;
}
