import { afterAll, describe, expect, it } from 'vitest';
import { readLimitDefaults } from '../../src-main/core/config/kernelLimits';
import { makeSupervisor } from '../core/kernel/helpers';

// Issue 13, item 5: a fork bomb stops at the kernel's process limit (RLIMIT_NPROC inside
// the sandbox's user namespace; for uid 0, which that rlimit exempts, the pids cgroup),
// the host stays responsive, another session's kernel still answers, and the bombing
// kernel recovers after a restart. The bomb is bounded (300 forks) so that without any
// limit it ends by itself and the test fails instead of harming the machine.
const { sup } = makeSupervisor({ kernelLimits: { ...readLimitDefaults().values, processes: 48 } });
afterAll(() => sup.close());

const BOMB = `
import os, time
n = 0
err = None
try:
    for _ in range(300):
        if os.fork() == 0:
            time.sleep(60)
            os._exit(0)
        n += 1
except OSError as e:
    err = e
print("forked", n)
raise err if err else SystemExit("no limit stopped the bomb")
`;

describe('a fork bomb in a cell', () => {
  it('stops at the process limit with a clear error, the host keeps ticking, and another kernel answers', async () => {
    expect((await sup.execute('other', 'python', 'print("ready")')).stdout).toBe('ready\n');
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 10);
    const bomb = await sup.execute('bomb', 'python', BOMB);
    const ticksDuringBomb = ticks;
    const other = await sup.execute('other', 'python', 'print(6 * 7)');
    clearInterval(ticker);

    expect(bomb.status).toBe('error');
    const forked = Number(/forked (\d+)/.exec(bomb.stdout)?.[1]);
    expect(forked).toBeLessThan(48);
    expect(bomb.error?.ename).toBe('BlockingIOError');
    expect(bomb.error?.evalue).toMatch(/too many processes/);
    expect(ticksDuringBomb).toBeGreaterThan(0);
    expect(other.stdout).toBe('42\n');
  });

  it('the bombing kernel recovers: after a restart its processes are gone and it runs cells', async () => {
    await sup.restart('bomb', 'python');
    const r = await sup.execute('bomb', 'python', 'import os, subprocess\nprint(subprocess.run(["echo", "alive"], capture_output=True, text=True).stdout.strip())\nprint(len([p for p in os.listdir("/proc") if p.isdigit()]) < 10)');
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout).toBe('alive\nTrue\n');
  });

  it('an interrupt during a bomb stops the cell and the kernel keeps answering', async () => {
    const running = sup.execute('bomb', 'python', `${BOMB.replace('raise err', 'import time\ntime.sleep(30)\nraise err')}`);
    await new Promise((r) => setTimeout(r, 1500));
    sup.interrupt('bomb', 'python');
    const r = await running;
    expect(r.status).not.toBe('ok');
    const after = await sup.execute('bomb', 'python', 'print("after")');
    expect(after.stdout).toBe('after\n');
  });
});
