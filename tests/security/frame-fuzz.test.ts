import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createCore } from '../../src-main/core/core';
import type { KernelProcess } from '../../src-main/core/kernel/kernelProcess';
import type { KernelSupervisor } from '../../src-main/core/kernel/supervisor';
import { makeSupervisor } from '../core/kernel/helpers';
import { fuzzFrames } from './support/frameFuzz';

// 10,000 random and mutated frames (valid-looking ones with wrong types, huge numbers,
// nested junk, wrong ids, host calls with bad args, results for other cells, noise) go
// through the host's real frame path while a cell runs; then a smaller batch goes
// through a real sandboxed kernel's fd 3. The host must stay up (an uncaught exception
// fails this file) and the session must stay usable.

let feed: ((cellId: string) => void) | null = null;
const { sup } = makeSupervisor({
  host: {
    call(method, _args, ctx) {
      if (method === 'gate' && feed) {
        const run = feed;
        feed = null; // a forged host call named "gate" must not feed again
        run(ctx.cellId);
        return { fed: true };
      }
      throw new Error(`no method ${method}`);
    },
  },
});
afterAll(() => sup.close());

/** A cell that writes each line of frames.json (base64; "CELL" becomes its own id) to fd 3 through the worker's writer. */
const FORGE_FROM_FILE = [
  'import sys, json, base64',
  'W = sys.modules["openai4s_worker"]',
  'CID = W._state["cell"].encode()',
  'for b in json.load(open("frames.json")):',
  '    W._send_line(base64.b64decode(b).replace(b"CELL", CID) + b"\\n")',
  'print("wrote", kept)',
].join('\n');

/** The session's live worker (the supervisor keeps it private; the fuzz needs its line handler). */
function liveProcess(supervisor: KernelSupervisor, sessionId: string): KernelProcess {
  const sessions = (supervisor as unknown as { sessions: Map<string, Map<string, { proc: KernelProcess | null }>> }).sessions;
  const proc = sessions.get(sessionId)?.get('python')?.proc;
  if (!proc) throw new Error(`no live python kernel for ${sessionId}`);
  return proc;
}

describe('frame fuzz', () => {
  it('10,000 random and mutated frames through the host frame handler leave the host and the kernel usable', async () => {
    await sup.execute('fuzz', 'python', 'kept = "still here"');
    const proc = liveProcess(sup, 'fuzz');
    const onLine = (proc as unknown as { onLine(line: Buffer): void }).onLine.bind(proc);
    let fed = 0;
    feed = (cellId) => {
      for (const line of fuzzFrames(10_000, cellId)) {
        onLine(line);
        fed++;
      }
    };
    // The cell waits in a host call while the frames are handled (a forged host_response
    // may answer it first, with an error: that is the cell's own business).
    const r = await sup.execute('fuzz', 'python', 'try:\n    host.call("gate")\nexcept HostError:\n    pass\nprint(kept)');
    expect(fed).toBe(10_000);
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe('still here\n');
    expect(r.stderr).toMatch(/\[dropped an invalid frame from the kernel: .+ \(and \d+ more\)\]/);
    expect(proc.alive).toBe(true);
    expect(proc.dropped.count).toBeGreaterThan(5_000);
    const next = await sup.execute('fuzz', 'python', 'print(6 * 7)');
    expect(next).toMatchObject({ status: 'ok', stdout: '42\n', generation: r.generation });
  });

  it('1,000 such frames through a real kernel whose host calls go to the real dispatcher', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-fuzz-core-'));
    const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNATTENDED_APPROVAL: '' } });
    try {
      const first = await core.kernels.execute('fuzz-core', 'python', 'kept = 5');
      const lines = fuzzFrames(1_000, 'CELL', 99).map((l) => l.toString('base64'));
      fs.writeFileSync(path.join(core.kernels.workspaceFor('fuzz-core'), 'frames.json'), JSON.stringify(lines));
      const r = await core.kernels.execute('fuzz-core', 'python', FORGE_FROM_FILE);
      expect(r).toMatchObject({ status: 'ok', stdout: 'wrote 5\n', generation: first.generation });
      const next = await core.kernels.execute('fuzz-core', 'python', 'print(kept * 2)');
      expect(next).toMatchObject({ status: 'ok', stdout: '10\n' });
    } finally {
      await core.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('1,000 such frames written by a cell to fd 3 of a real sandboxed kernel', async () => {
    const first = await sup.execute('fuzz-pipe', 'python', 'kept = 7');
    const lines = fuzzFrames(1_000, 'CELL', 4242).map((l) => l.toString('base64'));
    fs.writeFileSync(path.join(sup.workspaceFor('fuzz-pipe'), 'frames.json'), JSON.stringify(lines));
    const r = await sup.execute('fuzz-pipe', 'python', FORGE_FROM_FILE);
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe('wrote 7\n');
    expect(r.generation).toBe(first.generation);
    expect(r.stderr).toContain('[dropped an invalid frame from the kernel: ');
    const next = await sup.execute('fuzz-pipe', 'python', 'print(kept * 6)');
    expect(next).toMatchObject({ status: 'ok', stdout: '42\n', generation: first.generation });
  });
});
