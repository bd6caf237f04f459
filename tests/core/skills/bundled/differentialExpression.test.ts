import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

describe('bundled skill differential-expression (R)', () => {
  it('Marioni liver vs kidney: albumin and fibrinogen A/B are the top liver genes, padj < 0.05; a volcano plot is written', async () => {
    const r = await k.run(
      [
        'de <- skill_sidecar("differential-expression")',
        'counts <- de$read_counts(de$example_counts())',
        'res <- de$run_edger(counts, de$read_samples(de$example_samples(), counts), "tissue", "Liver", "Kidney")',
        'de$volcano(res, "figures/volcano.svg", label = head(res$gene, 3))',
        'cat(jsonlite::toJSON(list(top = head(res, 3), method = attr(res, "method"), summary = as.list(de$summarize_de(res))), auto_unbox = TRUE, digits = NA), "\\n")',
      ].join('\n'),
      'r',
    );
    expect(r.error).toBeUndefined();
    const out = JSON.parse(r.stdout.trim()) as { top: { gene: string; log2FoldChange: number; padj: number }[]; method: string; summary: { up: number; down: number; tested: number } };
    // ALB (chr4q13) and FGB/FGA (chr4q31): hepatocyte genes.
    expect(out.top.map((g) => g.gene)).toEqual(['ENSG00000163631', 'ENSG00000171564', 'ENSG00000171560']);
    for (const g of out.top) {
      expect(g.padj).toBeLessThan(0.05);
      expect(g.log2FoldChange).toBeGreaterThan(5);
    }
    expect(out.method).toMatch(/^edgeR \S+ quasi-likelihood F-test, tissue Liver vs Kidney, filterByExpr kept \d+ of 743 genes/);
    expect(out.summary.up + out.summary.down).toBeGreaterThan(0);
    expect(out.summary.tested).toBeLessThanOrEqual(743);
    expect(fs.readFileSync(path.join(k.workspace(), 'figures/volcano.svg'), 'utf8')).toContain('<svg');
  });
});
