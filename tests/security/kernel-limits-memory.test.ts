import { afterAll, describe, expect, it } from 'vitest';
import { readLimitDefaults } from '../../src-main/core/config/kernelLimits';
import { makeSupervisor } from '../core/kernel/helpers';

// Issue 13, item 5: under a 1 GiB memory limit numpy still imports and works, a 2 GiB
// allocation fails with MemoryError naming the limit, and the kernel keeps its variables.
// Without the limit the 2 GiB array is simply allocated (the machine has far more).
const { sup } = makeSupervisor({ kernelLimits: { ...readLimitDefaults().values, memoryMiB: 1024 } });
afterAll(() => sup.close());

describe('the memory limit', () => {
  it('a big allocation fails with MemoryError and the kernel survives', async () => {
    const setup = await sup.execute('mem', 'python', 'import numpy as np, matplotlib.pyplot as plt\nkeep = np.arange(10)\nprint(int(np.ones((500, 500)).sum()))');
    expect(setup.status, setup.error?.traceback).toBe('ok');
    expect(setup.stdout).toBe('250000\n');
    const big = await sup.execute('mem', 'python', 'x = np.ones(2 * 1024**3 // 8)\nprint("allocated", x.nbytes)');
    expect(big.status).toBe('error');
    expect(big.error?.ename).toBe('MemoryError');
    expect(big.error?.evalue).toMatch(/memory limit/);
    const after = await sup.execute('mem', 'python', 'print(int(keep.sum()))');
    expect(after.stdout).toBe('45\n');
  });

  it('a pure-Python allocation also stops with MemoryError', async () => {
    const r = await sup.execute('mem', 'python', 'b = bytearray(1536 * 1024 * 1024)');
    expect(r.error?.ename).toBe('MemoryError');
  });
});
