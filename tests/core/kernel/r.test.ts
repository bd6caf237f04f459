import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from './helpers';

const { sup, dataDir } = makeSupervisor({
  host: { call: (method, args) => (method === 'save_artifact' ? { saved: (args as { path: string }).path } : Promise.reject(new Error('not available yet'))) },
});
afterAll(() => sup.close());

describe('R kernel (Rscript + jsonlite under bwrap)', () => {
  it('runs cells with a persistent global environment', async () => {
    const a = await sup.execute('r1', 'r', 'x <- 6 * 7\ncat(x)');
    expect(a.status).toBe('ok');
    expect(a.stdout).toBe('42');
    expect(a.sandbox.state).toBe('sandboxed');
    const b = await sup.execute('r1', 'r', 'x + 1');
    expect(b.stdout).toBe('[1] 43\n');
    expect(b.generation).toBe(a.generation);
    expect(b.usage!.peakRssKb).toBeGreaterThan(1000);
  });

  it('reports the failing line of the cell', async () => {
    const r = await sup.execute('r1', 'r', 'y <- 1\nz <- 2\nstop("boom")');
    expect(r.status).toBe('error');
    expect(r.error!.evalue).toBe('boom');
    expect(r.error!.line).toBe(3);
    expect(r.error!.traceback).toMatch(/<cell-\d+>, line 3/);
  });

  it('saves plots through a file device as PNG files, and calls the host', async () => {
    const r = await sup.execute('r1', 'r', 'plot(1:10)\nres <- save_artifact("plot.png")\ncat(res$saved)\ntry(host_call("llm", prompt = "hi"))');
    expect(r.status).toBe('ok');
    expect(r.stdout).toContain('plot.png');
    expect(r.stderr).toMatch(/llm: not available yet/);
    const figure = r.displays.find((d) => d.path)!;
    expect(fs.readFileSync(path.join(dataDir, 'workspaces', 'r1', figure.path!)).subarray(1, 4).toString()).toBe('PNG');
  });

  it('is interrupted with its variables kept', async () => {
    setTimeout(() => sup.interrupt('r1', 'r'), 400);
    const r = await sup.execute('r1', 'r', 'Sys.sleep(30)');
    expect(r.status).toBe('interrupted');
    const after = await sup.execute('r1', 'r', 'cat(x)');
    expect(after.stdout).toBe('42');
  });
});
