import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KernelSupervisor } from '../../src-main/core/kernel/supervisor';
import type { BenchRow, BenchSuite } from '../types';

// Timed inside the cell (perf_counter), so only the file system work is measured.
const CELL = `import os, time
def t(fn):
    s = time.perf_counter(); fn(); return (time.perf_counter() - s) * 1000
def read_big():
    with open("big.bin", "rb") as f:
        while f.read(1 << 20): pass
def create_small():
    os.makedirs("small", exist_ok=True)
    for i in range(10000):
        with open("small/f%d" % i, "w") as f: f.write("x")
def stat_small():
    for i in range(10000): os.stat("small/f%d" % i)
read_big()  # page cache warm for both layouts
print(t(read_big), t(create_small), t(stat_small))
`;

/**
 * The cost of OPENAI4S_SANDBOX_HIDE_PATHS (the workspace through a bindfs view) against
 * the plain bind: reading a 500 MB file, creating and stat-ing 10k small files. These
 * numbers decided the default (`off`); see kernel-workers/README.md.
 */
const suite: BenchSuite = {
  name: 'workspaceView',
  async run() {
    const rows: BenchRow[] = [];
    for (const mode of ['off', 'on'] as const) {
      const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-vbench-'));
      const sup = new KernelSupervisor({
        dataDir,
        processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', OPENAI4S_SANDBOX_HIDE_PATHS: mode },
        sandboxMode: () => 'enforce',
        idleShutdownMs: 0,
      });
      try {
        const ws = sup.workspaceFor('bench');
        fs.mkdirSync(ws, { recursive: true });
        const fd = fs.openSync(path.join(ws, 'big.bin'), 'w');
        const chunk = Buffer.alloc(1 << 20, 7);
        for (let i = 0; i < 500; i++) fs.writeSync(fd, chunk);
        fs.closeSync(fd);
        const r = await sup.execute('bench', 'python', CELL);
        if (r.status !== 'ok') throw new Error(`workspaceView bench cell failed: ${r.error?.evalue ?? r.stderr}`);
        const [read, create, stat] = r.stdout.trim().split(' ').map(Number) as [number, number, number];
        const label = mode === 'on' ? 'bindfs view (HIDE_PATHS=on)' : 'plain bind (HIDE_PATHS=off)';
        rows.push({ metric: `workspace ${label}: read a 500 MB file`, value: read, unit: 'ms' });
        rows.push({ metric: `workspace ${label}: create 10k small files`, value: create, unit: 'ms' });
        rows.push({ metric: `workspace ${label}: stat 10k small files`, value: stat, unit: 'ms' });
      } finally {
        await sup.close();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    }
    return rows;
  },
};
export default suite;
