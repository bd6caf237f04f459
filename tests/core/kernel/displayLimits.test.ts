import { afterAll, describe, expect, it } from 'vitest';
import { makeSupervisor } from './helpers';

// A cell that writes displays in a loop, or leaves hundreds of figures open, must not fill
// the app's memory, the window and the ledger, nor spend minutes drawing them; drawing them
// is stopped by an interrupt like the cell's own code, not by killing the kernel.
const { sup } = makeSupervisor({ limits: { outputBytes: 1024 * 1024, textBytes: 64 * 1024, imageBytes: 16 * 1024 * 1024, flushMs: 50, displays: 20 } });
afterAll(() => sup.close());

describe('display limits', () => {
  it('keeps a cell’s first displays and says how many more were not kept', async () => {
    const r = await sup.execute(
      'flood',
      'python',
      [
        'import sys, json',
        'W = sys.modules["openai4s_worker"]',
        'for i in range(500):',
        '    W.send({"type": "display", "id": W._state["cell"], "data": {"text/plain": "row %d" % i}})',
        'print("sent")',
      ].join('\n'),
    );
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.displays).toHaveLength(21);
    expect(r.displays[19]!.data['text/plain']).toBe('row 19');
    expect(r.displays[20]!.data['text/plain']).toMatch(/^\[480 more displays not kept: a cell keeps 20 displays/);
  });

  it('saves at most 50 figures of a cell and says so; an interrupt while they are drawn keeps the kernel', async () => {
    let drawn!: () => void;
    const started = new Promise<void>((resolve) => (drawn = resolve));
    const cell = sup.execute(
      'figures',
      'python',
      ['import matplotlib', 'matplotlib.use("Agg")', 'import matplotlib.pyplot as plt', 'for i in range(60):', '    plt.figure(); plt.plot([1, 2, 3])', 'x = 41', 'print("drawn")'].join('\n'),
      { onOutput: (_stream, text) => (text.includes('drawn') ? drawn() : undefined) },
    );
    await started;
    await new Promise((r) => setTimeout(r, 800));
    sup.interrupt('figures', 'python');
    const r = await cell;
    expect(r.died).toBeUndefined();
    const texts = r.displays.map((d) => d.data['text/plain'] ?? '');
    expect(texts[0]).toBe('60 figures open: the first 50 are saved; save the others with savefig, or close figures you do not need (plt.close)');
    expect(texts.at(-1)).toBe('figures not all saved: the cell was interrupted while they were drawn');
    expect(texts.filter((t) => t.startsWith('<figure')).length).toBeLessThan(50);
    const next = await sup.execute('figures', 'python', 'print(x + 1, len(plt.get_fignums()))');
    expect(next.generation).toBe(r.generation);
    expect(next.stdout).toBe('42 0\n');
    expect(next.displays).toEqual([]);
  });

  it('keeps the kernel when a cell’s value, its HTML or its error text is tens of megabytes: the worker sends what the app keeps', async () => {
    const big = await sup.execute(
      'huge',
      'python',
      ['kept = 7', 'class X:', '    def _repr_html_(self): return "h" * 70_000_000', '    def __repr__(self): return "r" * 70_000_000', 'X()'].join('\n'),
    );
    expect(big.died).toBeUndefined();
    expect(big.displays[0]!.data['text/plain']).toMatch(/^r+\n\[\.\.\. cut at 64 KiB\]$/);
    expect(big.displays[0]!.data['text/html']).toMatch(/^h+\n\[\.\.\. cut at 64 KiB\]$/);
    const raised = await sup.execute('huge', 'python', 'raise ValueError("z" * 70_000_000)');
    expect(raised.died).toBeUndefined();
    expect(raised.error?.ename).toBe('ValueError');
    expect(raised.error?.evalue).toMatch(/^z+\n\[\.\.\. cut at 64 KiB\]$/);
    const after = await sup.execute('huge', 'python', 'print(kept)');
    expect(after.generation).toBe(big.generation);
    expect(after.stdout).toBe('7\n');
  });

  it('ends a cell whose exception cannot be described with an error, not the kernel', async () => {
    const r = await sup.execute('undescribable', 'python', ['kept = 3', 'class E(Exception):', '    def __str__(self): raise RuntimeError("no")', 'raise E()'].join('\n'));
    expect(r.died).toBeUndefined();
    expect(r.error).toMatchObject({ ename: 'E', evalue: '<its str() raised RuntimeError>' });
    const worse = await sup.execute(
      'undescribable',
      'python',
      ['class M(type):', '    @property', '    def __name__(cls): raise RuntimeError()', 'class F(Exception, metaclass=M):', '    def __str__(self): raise RuntimeError()', 'raise F()'].join('\n'),
    );
    expect(worse.died).toBeUndefined();
    expect(worse.error?.evalue).toMatch(/could not be described/);
    expect((await sup.execute('undescribable', 'python', 'print(kept)')).stdout).toBe('3\n');
  });

  it('says why it stopped a kernel that wrote one protocol line over 64 MiB itself', async () => {
    const r = await sup.execute('fd3', 'python', 'import os\nchunk = b"x" * (1 << 20)\nfor _ in range(70): os.write(3, chunk)\nimport time; time.sleep(30)');
    expect(r.died?.cause).toEqual({ kind: 'frame_too_large', limitMiB: 64 });
    expect(r.died?.reason).toBe('was stopped: it sent the app one message over 64 MiB (write large results to a file in the workspace instead)');
  });
});
