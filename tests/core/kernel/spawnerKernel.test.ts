import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runUntilKilled } from '../../support/killChild';
import { hostProcessesMatching, waitFor } from './helpers';

describe.skipIf(process.platform !== 'linux')('a sandboxed kernel started by the spawner', () => {
  it('talks over pipes, and its sandbox (with what a cell started in it) ends when the app is killed with SIGKILL', async () => {
    const seconds = String(3_000 + Math.floor(Math.random() * 6_000));
    let beforeKill: number[] = [];
    const out = await runUntilKilled(path.join(import.meta.dirname, 'fixtures/kernelAppChild.ts'), [seconds], (text) => {
      if (!text.includes('\n')) return false;
      beforeKill = hostProcessesMatching(`sleep ${seconds}`);
      return true;
    });
    expect(beforeKill).toHaveLength(1);
    // A pipe: the spawner started it (Node's own spawn gives socket pairs).
    expect(JSON.parse(out.split('\n')[0]!)).toEqual({ error: null, stdout: 'fifo' });
    expect(await waitFor(() => hostProcessesMatching(`sleep ${seconds}`).length === 0, 10_000)).toBe(true);
  }, 60_000);
});
