import { afterAll, describe, expect, it } from 'vitest';
import type { KernelLifecycleEvent } from '../../../src-preload/contract/kernel';
import { makeSupervisor, waitFor } from './helpers';

/**
 * Deleting a session stops its kernels at once (issue 16), instead of leaving them to the
 * 30-minute idle timeout: the running cell ends, a cell waiting behind it never starts,
 * and the session's slots are released.
 */
const events: KernelLifecycleEvent[] = [];
const { sup } = makeSupervisor({
  idleShutdownMs: 30 * 60_000,
  onEvent: (topic, payload) => {
    if (topic === 'kernel.lifecycle') events.push(payload as KernelLifecycleEvent);
  },
});
afterAll(() => sup.close());

function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

describe('closing a session', () => {
  it('stops its kernel at once, refuses its waiting cell and releases its slots', async () => {
    expect((await sup.execute('gone', 'python', 'x = 1')).status).toBe('ok');
    const [pgid] = sup.processGroups('gone');
    expect(pgid).toBeDefined();
    let started = false;
    const running = sup.execute('gone', 'python', 'import time\nprint("sleeping", flush=True)\ntime.sleep(60)', { onOutput: () => (started = true) });
    const waiting = sup.execute('gone', 'python', 'print("must never run")');
    expect(await waitFor(() => started, 10_000)).toBe(true);

    await sup.closeSession('gone');
    expect(groupAlive(pgid!)).toBe(false);
    expect((await running).died).toBeTruthy();
    await expect(waiting).rejects.toThrow(/session was closed/);
    expect(events.filter((e) => e.sessionId === 'gone').map((e) => e.kind)).toEqual(['started', 'session_closed']);
    expect(sup.sizes()).toEqual({ sessions: 0, liveProcesses: 0, ownedKernels: 0 });
    // Asking about a session does not bring its slots back.
    expect(sup.status('gone').slots.map((s) => s.state)).toEqual(['none', 'none']);
    expect(sup.sizes().sessions).toBe(0);
  }, 60_000);
});
