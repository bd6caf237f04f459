import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

describe('bundled skill protein-properties', () => {
  it('P01308: 110 residues, 11,981 Da as UniProt lists; A + B chains minus three disulfides give insulin 5807.6 Da', async () => {
    const r = await k.json<{ full: Record<string, number>; a: number; b: number }>(
      [
        'import json',
        'pp = host.skills.sidecar("protein-properties")',
        'seq = pp.read_fasta(pp.example_path())[0]["sequence"]',
        'full = pp.properties(seq)',
        'a = pp.properties(pp.segment(seq, 90, 110))["molecular_weight"]',
        'b = pp.properties(pp.segment(seq, 25, 54))["molecular_weight"]',
        'print(json.dumps({"full": {k: full[k] for k in ("length", "molecular_weight", "isoelectric_point", "gravy", "extinction_280_cystines")}, "a": a, "b": b}))',
      ].join('\n'),
    );
    expect(r.full.length).toBe(110);
    expect(Math.round(r.full.molecular_weight!)).toBe(11981);
    expect(r.full.isoelectric_point).toBeCloseTo(5.22, 2);
    // Human insulin C257H383N65O77S6: 5807.57 Da (two H lost per disulfide, three disulfides).
    expect(r.a + r.b - 3 * 2.016).toBeCloseTo(5807.6, 1);
    // Pace et al. (1995) at 280 nm: 2 Trp x 5500 + 4 Tyr x 1490 + 3 cystines x 125 (six Cys paired).
    expect(r.full.extinction_280_cystines).toBe(2 * 5500 + 4 * 1490 + 3 * 125);
  });
});
