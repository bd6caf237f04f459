import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import { makeSupervisor } from './helpers';

// A cell that closes the worker's capture device (dev.off(), graphics.off()) used to send
// its next plot to R's default device: pdf("Rplots.pdf") in the workspace, and no figure.
const { sup, dataDir } = makeSupervisor();
afterAll(() => sup.close());

const ws = (session: string) => path.join(dataDir, 'workspaces', session);
const figures = (r: KernelCellResult) => r.displays.filter((d) => d.path);

describe('R figures after the cell closes its device', () => {
  it('captures every page drawn after dev.off() and graphics.off(), each with its own SVG in page order, and writes no Rplots.pdf', async () => {
    const code = [
      'plot(1:10, main = "first page")',
      'dev.off()',
      'par(mfrow = c(1, 2)); hist(c(1, 2, 2, 3), main = "left panel"); barplot(c(a = 3, b = 5), main = "right panel")',
      'graphics.off()',
      'library(grid); grid.newpage(); grid.text("grid page")',
    ].join('\n');
    const r = await sup.execute('r-dev', 'r', code);
    expect(r.error).toBeUndefined();
    expect(figures(r)).toHaveLength(3);
    const svgs = figures(r).map((f) => fs.readFileSync(path.join(ws('r-dev'), f.svgPath!), 'utf8'));
    // Cairo draws text as glyphs: the pages are told apart by how much they draw.
    const paths = svgs.map((svg) => (svg.match(/<path /g) ?? []).length);
    expect(paths[1]).toBeGreaterThan(paths[0]!);
    expect(paths[0]).toBeGreaterThan(paths[2]!);
    // A later cell that starts with dev.off() still has its figure.
    const later = await sup.execute('r-dev', 'r', 'invisible(dev.off())\nplot(3:1)');
    expect(later.error).toBeUndefined();
    expect(figures(later)).toHaveLength(1);
    expect(fs.readdirSync(ws('r-dev')).filter((name) => /^Rplots/.test(name))).toEqual([]);
  });

  it('captures what dev.new() opens, and a PDF the cell writes itself is written where it says', async () => {
    const r = await sup.execute('r-own', 'r', 'dev.new()\nplot(1:3)\npdf("mine.pdf")\nplot(4:6)\ninvisible(dev.off())\nplot(7:9)');
    expect(r.error).toBeUndefined();
    expect(figures(r)).toHaveLength(2);
    expect(fs.readFileSync(path.join(ws('r-own'), 'mine.pdf')).subarray(0, 5).toString()).toBe('%PDF-');
    expect(fs.readdirSync(ws('r-own')).filter((name) => /^Rplots/.test(name))).toEqual([]);
  });
});
