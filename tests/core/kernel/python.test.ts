import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { worstCaseBytes } from '../../../src-main/core/kernel/outputBudget';
import { makeSupervisor } from './helpers';

// Real workers under the real bwrap with /usr/bin/python3 (the Debian science stack).
const calls: { method: string; args: unknown; cell: string }[] = [];
const { sup, dataDir } = makeSupervisor({
  limits: { outputBytes: 64 * 1024 },
  host: {
    call(method, args, ctx) {
      calls.push({ method, args, cell: ctx.cellId });
      if (method === 'echo' || method === 'remember' || method === 'compute.jobs.submit') return { echoed: args };
      if (method === 'fail') throw new Error('denied by policy');
      throw new Error(`host method "${method}" is not available yet`);
    },
  },
});
afterAll(() => sup.close());

describe('python kernel', () => {
  it('keeps the namespace across cells, shows the last value, reports usage', async () => {
    const a = await sup.execute('p1', 'python', 'import numpy as np\nx = np.arange(5)\nprint("sum", x.sum())');
    expect(a.status).toBe('ok');
    expect(a.sandbox).toEqual({ state: 'sandboxed', backend: 'bwrap' });
    expect(a.stdout).toBe('sum 10\n');
    const b = await sup.execute('p1', 'python', 'y = x * 2\ny.tolist()');
    expect(b.generation).toBe(a.generation);
    expect(b.displays[0]!.data['text/plain']).toBe('[0, 2, 4, 6, 8]');
    expect(b.usage!.wallMs).toBeGreaterThanOrEqual(0);
    expect(b.usage!.peakRssKb).toBeGreaterThan(1000);
  });

  it('names the cell and its own line in a traceback, without worker frames', async () => {
    const r = await sup.execute('p1', 'python', 'a = 1\n\ndef f():\n    return 1/0\nf()');
    expect(r.status).toBe('error');
    expect(r.error!.ename).toBe('ZeroDivisionError');
    expect(r.error!.line).toBe(4);
    expect(r.error!.traceback).toMatch(/File "<cell-\d+>", line 5, in <module>/);
    expect(r.error!.traceback).not.toContain('worker.py');
    const syntax = await sup.execute('p1', 'python', 'x = 1\nif x\n  pass');
    expect(syntax.error!.ename).toBe('SyntaxError');
    expect(syntax.error!.line).toBe(2);
  });

  it('print cannot forge a protocol frame (fd 1/2 are captured apart)', async () => {
    const r = await sup.execute('p1', 'python', 'print(\'{"type": "result", "id": "x", "ok": true}\')\nimport sys; sys.stderr.write("err line\\n")\n1/0');
    expect(r.status).toBe('error');
    expect(r.stdout).toContain('"type": "result"');
    expect(r.stderr).toContain('err line');
  });

  it('host calls: answered mid-cell, an error raises HostError, unknown methods say "not available yet"', async () => {
    const r = await sup.execute('p1', 'python', 'out = [host.call("echo", n=i)["echoed"]["n"] for i in range(50)]\nprint(sum(out))');
    expect(r.stdout).toBe(`${(49 * 50) / 2}\n`);
    expect(calls.filter((c) => c.method === 'echo')).toHaveLength(50);
    expect(calls.at(-1)!.cell).toBe(r.cellId);
    const e = await sup.execute('p1', 'python', 'try:\n    host.call("fail")\nexcept HostError as exc:\n    print("caught", exc)\nhost.science.search(query="INS")');
    expect(e.stdout).toBe('caught fail: denied by policy\n');
    expect(e.error!.ename).toBe('HostError');
    expect(e.error!.evalue).toMatch(/science\.search.*not available yet/);
    expect(e.error!.line).toBe(5);
  });

  it('host.<name>(...) and host.<a>.<b>.<c>(...) call that method with no change to the worker', async () => {
    const r = await sup.execute('p1', 'python', 'print(host.remember(text="x")["echoed"]["text"])\nprint(host.compute.jobs.submit(n=2)["echoed"]["n"])\nprint(repr(host.mcp.call))');
    expect(r.status).toBe('ok');
    expect(r.stdout).toBe('x\n2\n<host method mcp.call>\n');
    const methods = calls.map((c) => c.method);
    expect(methods).toContain('remember');
    expect(methods).toContain('compute.jobs.submit');
  });

  it('coalesces 10k prints into few output events', async () => {
    const events: string[] = [];
    const r = await sup.execute('p2', 'python', 'for i in range(10000):\n    print("x" * 3)', { onOutput: (_s, t) => events.push(t) });
    expect(r.stdout.length).toBe(40_000);
    expect(r.truncated).toBe(false);
    expect(events.join('')).toBe(r.stdout);
    expect(events.length).toBeLessThan(50);
  });

  it('caps Chinese and emoji output at the worst-case byte count and keeps the error line and usage', async () => {
    const r = await sup.execute('p2', 'python', 'print("基因😀" * 20000)\nraise ValueError("after the flood")');
    expect(r.truncated).toBe(true);
    expect(worstCaseBytes(r.stdout)).toBeLessThanOrEqual(64 * 1024);
    expect(r.stdout).not.toMatch(/[\ud800-\udbff]$/);
    expect(r.stderr).toMatch(/output truncated/);
    expect(r.error!.ename).toBe('ValueError');
    expect(r.error!.line).toBe(2);
    expect(r.usage).toBeDefined();
  });

  it('a cell printing 100 MB ends with a truncation note and bounded output', async () => {
    const r = await sup.execute('p2', 'python', 'import sys\nchunk = "y" * 1_000_000\nfor _ in range(100):\n    sys.stdout.write(chunk)\nprint("done")');
    expect(r.status).toBe('ok');
    expect(r.stdout.length).toBeLessThanOrEqual(64 * 1024);
    expect(r.stderr).toMatch(/output truncated: the cell wrote 9\d\.\d MiB more/);
  }, 60_000);

  it('saves open matplotlib figures as PNG in the workspace at the end of the cell', async () => {
    const r = await sup.execute('p3', 'python', 'import matplotlib.pyplot as plt\nplt.plot([1, 2, 3])\nfig2 = plt.figure()\nplt.bar([1], [2])');
    expect(r.status).toBe('ok');
    const figures = r.displays.filter((d) => d.path);
    expect(figures).toHaveLength(2);
    const png = fs.readFileSync(path.join(dataDir, 'workspaces', 'p3', figures[0]!.path!));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    const again = await sup.execute('p3', 'python', 'print(len(plt.get_fignums()))');
    expect(again.displays.filter((d) => d.path)).toHaveLength(0);
  }, 60_000);

  it('interrupts `while True: pass`, keeps the generation and its variables', async () => {
    await sup.execute('p4', 'python', 'keep = 7');
    setTimeout(() => sup.interrupt('p4', 'python'), 300);
    const r = await sup.execute('p4', 'python', 'while True: pass');
    expect(r.status).toBe('interrupted');
    expect(r.error!.ename).toBe('KeyboardInterrupt');
    const after = await sup.execute('p4', 'python', 'print(keep)');
    expect(after.stdout).toBe('7\n');
    expect(after.generation).toBe(r.generation);
  });

  it('kills a cell that ignores the interrupt after the bound; the next cell is a new generation', async () => {
    setTimeout(() => sup.interrupt('p4', 'python'), 300);
    const r = await sup.execute('p4', 'python', 'import time\nwhile True:\n    try:\n        time.sleep(1)\n    except KeyboardInterrupt:\n        pass');
    expect(r.status).toBe('interrupted');
    expect(r.died!.lost).toMatch(/variables.*gone.*new generation/);
    // By case too, for a window in another language.
    expect(r.died!.cause).toEqual({ kind: 'interrupt_unheeded', graceMs: expect.any(Number) });
    const next = await sup.execute('p4', 'python', "print('keep' in globals())");
    expect(next.stdout).toBe('False\n');
    expect(next.generation).not.toBe(r.generation);
  });

  it('detects os.kill(os.getpid(), 9) and runs the next cell in a new generation', async () => {
    const r = await sup.execute('p5', 'python', 'import os\nos.kill(os.getpid(), 9)');
    expect(r.status).toBe('died');
    expect(r.died!.reason).toBe('killed by SIGKILL');
    expect(r.died!.cause).toEqual({ kind: 'signal', signal: 'SIGKILL' });
    expect(sup.status('p5').slots[0]!.reason).toMatch(/SIGKILL/);
    expect(sup.status('p5').slots[0]!.cause).toEqual({ kind: 'ended', generation: r.generation, exit: { kind: 'signal', signal: 'SIGKILL' } });
    const next = await sup.execute('p5', 'python', 'print(1)');
    expect(next.status).toBe('ok');
    expect(next.generation).not.toBe(r.generation);
  });

  it('restart gives a fresh generation; status reports the slots', async () => {
    const before = await sup.execute('p6', 'python', 'v = 1');
    expect(sup.status('p6').slots[0]).toMatchObject({ language: 'python', state: 'idle', generation: before.generation, cells: 1 });
    const restarted = await sup.restart('p6', 'python');
    expect(restarted.state).toBe('none');
    const after = await sup.execute('p6', 'python', "print('v' in globals())");
    expect(after.stdout).toBe('False\n');
    expect(after.generation).not.toBe(before.generation);
  });
});

describe('crash loop', () => {
  it('stops after N failed starts with a clear error, and restart clears it', async () => {
    const { sup: bad, dataDir: dir } = makeSupervisor({ scripts: { python: 'python/does-not-exist.py' }, maxStartFailures: 3 });
    try {
      await expect(bad.execute('c1', 'python', 'print(1)')).rejects.toThrow(/failed to start 3 times in a row.*crash loop.*does-not-exist/s);
      expect(bad.status('c1').slots[0]!.state).toBe('dead');
      expect(bad.status('c1').slots[0]!.cause).toEqual({ kind: 'crash_loop', failures: 3, lastError: expect.stringMatching(/does-not-exist/) });
      await expect(bad.execute('c1', 'python', 'print(1)')).rejects.toThrow(/crash loop/);
      expect(fs.existsSync(path.join(dir, 'workspaces', 'c1'))).toBe(true);
      await bad.restart('c1', 'python');
      const cleared = bad.status('c1').slots[0]!;
      expect([cleared.state, cleared.cause, cleared.reason]).toEqual(['none', undefined, undefined]);
    } finally {
      await bad.close();
    }
  });
});
