/**
 * Issue 13, item 2, as the attacker ran it: inside a real sandboxed Python cell, a thread
 * exchanges `data/` with a symlink to a host folder (renameat2 RENAME_EXCHANGE through
 * ctypes) while the cell calls `host.read_file` and `host.write_file` thousands of times
 * through the real host dispatcher. No call may return the host file, and nothing may be
 * written into the host folder. (The old code returned the host file 13,005 times in
 * 20 s and created host files.)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MemoryAudit } from '../../src-main/core/capabilities/audit';
import { createPermissionLayer, HostDispatcher } from '../../src-main/core/capabilities/dispatcher';
import { createKernelHostHandler } from '../../src-main/core/capabilities/kernelHost';
import { MemoryRequestStore, MemoryRuleStore } from '../../src-main/core/capabilities/permissions/memoryStores';
import { createToolRegistry } from '../../src-main/core/capabilities/builtin';
import { makeSupervisor } from '../core/kernel/helpers';
import { CANARY, CANARY_NAME } from './support/swapper';

const registry = createToolRegistry({ env: {} });
const { policy, approvals } = createPermissionLayer({
  rules: new MemoryRuleStore(),
  requests: new MemoryRequestStore(),
  port: { ask: async () => 'deny' },
});
const dispatcher = new HostDispatcher({ registry, policy, approvals, audit: new MemoryAudit() });
// Plain bind mounts: through the default bindfs view RENAME_EXCHANGE fails (FUSE has no
// exchange here), so the race this test needs could not happen; the host-side defence
// must hold on its own for OPENAI4S_SANDBOX_HIDE_PATHS=off.
const { sup, dataDir } = makeSupervisor({ host: createKernelHostHandler(dispatcher, { runOf: () => 'run-1' }), processEnv: { OPENAI4S_SANDBOX_HIDE_PATHS: 'off' } });
const hostDir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-host-race-'));
afterAll(async () => {
  await sup.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(hostDir, { recursive: true, force: true });
});

const READS = 1_000;
const WRITES = 500;

describe('workspace race through host calls from a sandboxed cell', () => {
  it('host.read_file and host.write_file never reach the host folder while a cell thread swaps a folder', async () => {
    fs.writeFileSync(path.join(hostDir, 'notes.txt'), `${CANARY}\n`);
    fs.writeFileSync(path.join(hostDir, CANARY_NAME), `${CANARY}\n`);
    const code = `
import ctypes, os, sys, threading
# Hand the GIL back quickly, so the host calls are not starved by the swapping thread.
sys.setswitchinterval(0.0002)
libc = ctypes.CDLL(None, use_errno=True)
os.makedirs("data", exist_ok=True)
with open("data/notes.txt", "w") as f:
    f.write("benign\\n")
os.symlink(${JSON.stringify(hostDir)}, ".swap")
stop = []
swaps = [0]
def swapper():
    while not stop:
        if libc.renameat2(-100, b"data", -100, b".swap", 2) == 0:
            swaps[0] += 1
t = threading.Thread(target=swapper, daemon=True)
t.start()
leaks = ok = refused = 0
for i in range(${READS}):
    try:
        r = host.read_file("data/notes.txt")
        if "HOST-CANARY" in str(r):
            leaks += 1
        else:
            ok += 1
    except HostError:
        refused += 1
wrote = wrefused = 0
for i in range(${WRITES}):
    try:
        host.write_file("data/w%d.txt" % i, "written by the cell")
        wrote += 1
    except HostError:
        wrefused += 1
stop.append(1)
t.join()
print(leaks, ok, refused, wrote, wrefused, swaps[0])
`;
    const r = await sup.execute('race-host', 'python', code, { timeoutMs: 110_000 });
    expect(r.status, r.error?.traceback).toBe('ok');
    const [leaks, ok, refused, wrote, wrefused, swaps] = r.stdout.trim().split(' ').map(Number);
    expect(leaks).toBe(0);
    expect(fs.readdirSync(hostDir).sort()).toEqual([CANARY_NAME, 'notes.txt'].sort());
    expect(fs.readFileSync(path.join(hostDir, 'notes.txt'), 'utf8')).toBe(`${CANARY}\n`);
    // The race was live: the swap ran throughout, and both states were met.
    expect(swaps).toBeGreaterThan(1000);
    expect(ok).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
    expect(wrote).toBeGreaterThan(0);
    expect(wrefused).toBeGreaterThan(0);
  });
});
