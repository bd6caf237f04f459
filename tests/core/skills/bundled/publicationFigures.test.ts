import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

describe('bundled skill publication-figures', () => {
  it('PlantGrowth: group means 5.032 / 4.661 / 5.526 drawn in Okabe-Ito colours, SVG with text as text and a PDF', async () => {
    const r = await k.json<{ palette: Record<string, string>; out: { paths: string[]; groups: Record<string, { n: number; mean: number; colour: string }> } }>(
      [
        'import json',
        'pf = host.skills.sidecar("publication-figures")',
        'groups = {}',
        'for row in pf.read_csv(pf.example_path()):\n    groups.setdefault(row["group"], []).append(float(row["weight"]))',
        'out = pf.group_plot(groups, "dried weight (g)", "figures/plant-growth")',
        'print(json.dumps({"palette": pf.OKABE_ITO, "out": out}))',
      ].join('\n'),
    );
    // Okabe & Ito (2008), Color Universal Design.
    expect(r.palette).toEqual({ orange: '#E69F00', 'sky blue': '#56B4E9', 'bluish green': '#009E73', yellow: '#F0E442', blue: '#0072B2', vermillion: '#D55E00', 'reddish purple': '#CC79A7', black: '#000000' });
    const g = r.out.groups;
    expect([g.ctrl!.mean, g.trt1!.mean, g.trt2!.mean].map((m) => Number(m.toFixed(3)))).toEqual([5.032, 4.661, 5.526]);
    expect([g.ctrl!.n, g.trt1!.n, g.trt2!.n]).toEqual([10, 10, 10]);
    expect(r.out.paths).toEqual(['figures/plant-growth.svg', 'figures/plant-growth.pdf']);
    const svg = fs.readFileSync(path.join(k.workspace(), 'figures/plant-growth.svg'), 'utf8').toLowerCase();
    expect(svg).toContain('dried weight (g)'); // svg.fonttype none: labels stay editable text
    for (const colour of ['#0072b2', '#d55e00', '#009e73']) expect(svg).toContain(colour);
    expect(fs.readFileSync(path.join(k.workspace(), 'figures/plant-growth.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
  });
});
