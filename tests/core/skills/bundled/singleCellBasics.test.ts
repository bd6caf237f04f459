import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

describe('bundled skill single-cell-basics', () => {
  it('HSMM myoblasts: QC metrics as defined, cells normalised to 1e4, MYOG up and CDK1 down at 72 h', async () => {
    const r = await k.json<{ shape: number[]; mt: number; qc_ok: boolean; sums: number[]; myog: Record<string, number>; cdk1: Record<string, number>; removed: number }>(
      [
        'import json, warnings',
        'import numpy as np',
        'warnings.simplefilter("ignore")',
        'sc1 = host.skills.sidecar("single-cell-basics")',
        'adata = sc1.read_table(*sc1.example_paths())',
        'sc1.qc_metrics(adata)',
        // The metrics recomputed from the matrix by their definitions.
        'X = adata.X; mt = adata.var["mt"].values',
        'qc_ok = bool(np.array_equal(adata.obs["n_genes_by_counts"].values, (X > 0).sum(1)) and np.allclose(adata.obs["pct_counts_mt"].values, 100 * X[:, mt].sum(1) / X.sum(1)))',
        'adata, removed = sc1.filter_cells(adata, min_genes=20, max_pct_mt=95)',
        'sc1.normalize_log(adata)',
        'print(json.dumps({"shape": list(adata.shape), "mt": int(mt.sum()), "qc_ok": qc_ok, "removed": removed, "sums": np.expm1(adata.X).sum(1).tolist(),',
        '  "myog": sc1.compare(adata, "MYOG", "hours", 0, 72), "cdk1": sc1.compare(adata, "CDK1", "hours", 0, 72)}))',
      ].join('\n'),
    );
    expect(r.shape).toEqual([118, 140]);
    expect(r.removed).toBe(0);
    expect(r.mt).toBe(13); // the 13 protein-coding genes of the mitochondrial genome
    expect(r.qc_ok).toBe(true);
    for (const s of r.sums) expect(s).toBeCloseTo(1e4, 0);
    // Myogenin rises as myoblasts differentiate (Trapnell et al. 2014); CDK1 falls as they leave the cell cycle.
    expect(r.myog.mean_72).toBeGreaterThan(r.myog.mean_0!);
    expect(r.myog.frac_72).toBeGreaterThan(0.5);
    expect(r.myog.frac_0).toBeLessThan(0.1);
    expect(r.myog.p).toBeLessThan(1e-6);
    expect(r.cdk1.mean_72).toBeLessThan(r.cdk1.mean_0!);
    expect(r.cdk1.p).toBeLessThan(0.01);
  });
});
