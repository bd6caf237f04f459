import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

describe('bundled skill insulin-quicklook', () => {
  it('reads P01308 from the mounted skill folder: 110 residues, the composition plotted', async () => {
    const r = await k.json<{ header: string; length: number; leu: number; file: string; here: string }>(
      [
        'import json',
        'iq = host.skills.sidecar("insulin-quicklook")',
        'header, seq = iq.read_fasta(iq.example_path())',
        's = iq.summarize(seq)',
        'out = iq.plot_composition(s["composition"], "figures/insulin-composition.png")',
        'print(json.dumps({"header": header, "length": s["length"], "leu": s["composition"]["L"], "file": out, "here": iq.__file__}))',
      ].join('\n'),
    );
    expect(r.header).toMatch(/^sp\|P01308\|INS_HUMAN/);
    expect(r.length).toBe(110);
    // Leucine is insulin's most common residue: 20 of 110 (UniProt P01308 composition).
    expect(r.leu).toBe(20);
    expect(r.here).toBe('/opt/openai4s/skills/insulin-quicklook/kernel.py');
    const png = fs.readFileSync(path.join(k.workspace(), r.file));
    expect(png.subarray(1, 4).toString()).toBe('PNG');
    expect(k.loaded).toEqual(['insulin-quicklook']);
  });
});
