import { formatLimit } from './cellDeadline';

/**
 * After a cell's `result` the host waits for the end markers the worker wrote on stdout and
 * stderr before it (streamCapture.ts), so that all the cell printed is in its result. A
 * worker writes them before the result, so they are normally there already; if they are
 * not within this grace, the worker is wedged or gone without its pipes closing (or a cell
 * forged its result on fd 3 and runs on). Without a time limit on the cell that wait was
 * unbounded: the cell, and every later cell of its kernel, waited for ever.
 */
export const OUTPUT_END_GRACE_MS = 5_000;

/**
 * True once `done` settles, false when `graceMs` pass first. The verdict waits one turn of
 * the event loop's I/O after the timer: after the loop was blocked for longer than the grace,
 * the timer runs before the reads of pipes that became readable in time, and those reads
 * (the markers) come first.
 */
export function endsWithin(done: Promise<void>, graceMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    let settled = false;
    const timer = setTimeout(
      () =>
        setImmediate(() => {
          if (settled) return;
          settled = true;
          resolve(false);
        }),
      graceMs,
    );
    void done.then(() => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** The cell's note when its output did not end: what is kept, what happened to the kernel. */
export function outputEndMissingNote(graceMs: number): string {
  return `\n[the kernel sent this cell's result but not the end of its output within ${formatLimit(graceMs)} (the kernel is stuck, or died without closing its pipes): the output that arrived is kept, any after it is lost; the kernel was stopped and its variables are gone, so the next cell starts a new one]\n`;
}
