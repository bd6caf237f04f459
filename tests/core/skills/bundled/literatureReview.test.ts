import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

describe('bundled skill literature-review', () => {
  it('merges a repeated Europe PMC and OpenAlex search by DOI: 18 records, 7 duplicates, 11 papers in a cited table', async () => {
    const r = await k.json<{ flow: Record<string, unknown>; table: string; herger: { found_in: string[]; ids: string[]; pmid: string }; dois: (string | null)[] }>(
      [
        'import json',
        'lr = host.skills.sidecar("literature-review")',
        'searches = lr.load_searches(lr.example_path())',
        'again = searches[:2]          # the Europe PMC search and the OpenAlex DOI lookup, run a second time',
        'unique, removed = lr.dedupe(lr.records_from(searches + again))',
        'herger = next(u for u in unique if u["doi"] == "10.1016/j.xgen.2025.100814")',
        'dois = [lr.normalize_doi(d) for d in ("https://doi.org/10.1063/1.4938384", "doi:10.1038/SJ.BJC.6604860", "not a doi")]',
        'print(json.dumps({"flow": lr.flow(searches + again, unique, removed), "table": lr.table(unique), "herger": herger, "dois": dois}))',
      ].join('\n'),
    );
    expect(r.flow).toEqual({ identified: { europepmc: 12, openalex: 3, pubmed: 2, arxiv: 1 }, identified_total: 18, duplicates_removed: 7, screened: 11, included: 11 });
    const rows = r.table.split('\n').slice(2);
    expect(rows).toHaveLength(11);
    expect(rows[0]).toContain('| 1 | Michael Herger et al. | 2025 | High-throughput screening of human genetic variants by pooled prime editing | Cell Genomics | https://doi.org/10.1016/j.xgen.2025.100814 |');
    // Oldest last: LoPresti 1965 (PubMed), cited by its PubMed URL for want of an evidence id.
    expect(rows[10]).toMatch(/^\| 11 \| LoPresti PJ et al\. \| 1965 \| Zirconium granuloma .*\| https:\/\/pubmed\.ncbi\.nlm\.nih\.gov\/11850928\/ \|$/);
    expect(r.herger.ids).toEqual(['openalex:W4408732759']);
    expect(r.herger.pmid).toBe('40120586');
    expect(r.dois).toEqual(['10.1063/1.4938384', '10.1038/sj.bjc.6604860', null]);
  });
});
