import { afterAll, describe, expect, it } from 'vitest';
import type { KernelLifecycleEvent } from '../../../src-preload/contract/kernel';
import { endsWithin } from '../../../src-main/core/kernel/outputEnd';
import { makeSupervisor, waitFor } from './helpers';

/**
 * After a cell's result the host waits for the end markers of its stdout and stderr. A
 * worker stuck between the two (here: a cell that writes its own result frame on fd 3 and
 * then sleeps, so the real worker never reaches its markers) held a cell without a time
 * limit, and its kernel, for ever. The wait is bounded: the cell completes with what
 * arrived and a note, and the stuck kernel is stopped.
 */
const events: KernelLifecycleEvent[] = [];
const { sup } = makeSupervisor({
  outputEndGraceMs: 300,
  onEvent: (topic, payload) => {
    if (topic === 'kernel.lifecycle') events.push(payload as KernelLifecycleEvent);
  },
});
afterAll(() => sup.close());

const STUCK_AFTER_RESULT = [
  'import json, os, sys, time',
  'print("before the result", flush=True)',
  'worker = sys.modules["openai4s_worker"]',
  'os.write(3, (json.dumps({"type": "result", "id": worker._state["cell"], "ok": True}) + "\\n").encode())',
  'time.sleep(3600)',
].join('\n');

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

describe('the end of a cell’s output after its result', () => {
  it('settles a cell without a time limit whose output never ends, with what arrived and a note, and stops the stuck kernel', async () => {
    const first = await sup.execute('stuck', 'python', 'x = 1');
    const [pgid] = sup.processGroups('stuck');
    const r = await sup.execute('stuck', 'python', STUCK_AFTER_RESULT);
    expect(r.status).toBe('ok');
    expect(r.generation).toBe(first.generation);
    expect(r.stdout).toBe('before the result\n');
    expect(r.stderr).toBe(
      "\n[the kernel sent this cell's result but not the end of its output within 0.3 s (the kernel is stuck, or died without closing its pipes): the output that arrived is kept, any after it is lost; the kernel was stopped and its variables are gone, so the next cell starts a new one]\n",
    );
    expect(events).toContainEqual(expect.objectContaining({ kind: 'died', generation: first.generation, reason: 'its output did not end after a cell’s result, so it was stopped' }));
    expect(sup.status('stuck').slots.find((s) => s.language === 'python')?.cause).toEqual({ kind: 'ended', generation: first.generation, exit: { kind: 'signal', signal: 'SIGKILL' } });
    expect(await waitFor(() => !groupAlive(pgid!), 10_000)).toBe(true);
    const next = await sup.execute('stuck', 'python', 'print("x" in globals())');
    expect(next.generation).not.toBe(first.generation);
    expect(next.stdout).toBe('False\n');
    expect(next.stderr).toBe('');
  });

  it('counts an end that arrives in the same turn as the grace’s timer (after a blocked event loop) as in time', async () => {
    let release!: () => void;
    const done = new Promise<void>((resolve) => (release = resolve));
    const verdict = endsWithin(done, 10);
    // The loop is held past the grace, and the end arrives in the same turn the timer runs in.
    setTimeout(release, 10);
    const end = Date.now() + 50;
    while (Date.now() < end) {
      // busy: the timers phase then finds both due
    }
    expect(await verdict).toBe(true);
    expect(await endsWithin(new Promise<void>(() => {}), 10)).toBe(false);
  });
});
