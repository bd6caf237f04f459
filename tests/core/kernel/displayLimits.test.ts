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
});
