import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

interface Row {
  set: string;
  overlap: number;
  set_size: number;
  p: number;
  padj: number;
}

describe('bundled skill enrichment-analysis', () => {
  it('HIF-1 targets: glycolysis enriched (9 of 22, padj < 0.05), TCA not; p equals the exact hypergeometric tail, BH equals statsmodels', async () => {
    const r = await k.json<{ rows: Row[]; exact: number; small: number[]; statsmodels: number[] }>(
      [
        'import json, math',
        'from statsmodels.stats.multitest import multipletests',
        'en = host.skills.sidecar("enrichment-analysis")',
        'sets_path, hits_path = en.example_paths()',
        'hits, sets = en.read_gene_list(hits_path), en.read_gene_sets(sets_path)',
        'rows = en.enrich(hits, sets, universe_size=20000)',
        // P(X >= 9) with exact integers, independent of scipy.
        'exact = sum(math.comb(22, x) * math.comb(20000 - 22, 25 - x) for x in range(9, 23)) / math.comb(20000, 25)',
        // A small universe gives a spread of p-values for the BH comparison.
        'small = en.enrich(hits + ["TKT", "G6PD", "PGD", "CS", "FH", "HMGCR"], sets, universe_size=150)',
        'print(json.dumps({"rows": rows, "exact": exact, "small": [r["padj"] for r in small], "statsmodels": list(multipletests([r["p"] for r in small], method="fdr_bh")[1])}))',
      ].join('\n'),
    );
    const top = r.rows[0]!;
    expect(top).toMatchObject({ set: 'glycolysis', overlap: 9, set_size: 22 });
    expect(top.padj).toBeLessThan(0.05);
    expect(top.p / r.exact).toBeCloseTo(1, 9);
    const tca = r.rows.find((row) => row.set === 'tca_cycle')!;
    expect(tca.overlap).toBe(0);
    expect(tca.padj).toBe(1);
    expect(new Set(r.small.map((p) => p.toPrecision(6))).size).toBeGreaterThan(2);
    r.small.forEach((p, i) => expect(p).toBeCloseTo(r.statsmodels[i]!, 12));
  });
});
