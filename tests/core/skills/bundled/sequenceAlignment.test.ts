import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

describe('bundled skill sequence-alignment', () => {
  it('human vs gorilla insulin identical, vs chimpanzee 108/110 with the two signal-peptide changes; the MSA keeps every sequence', async () => {
    const r = await k.json<{ ids: string[]; gorilla: number; chimp: { identical: number; columns: number; identity: number; differences: [number, string, string][] }; msa: Record<string, string>; pig: number }>(
      [
        'import json',
        'al = host.skills.sidecar("sequence-alignment")',
        'recs = {r["id"]: r["sequence"] for r in al.read_fasta(al.example_path())}',
        'chimp = al.pairwise(recs["INS_HUMAN"], recs["INS_PANTR"])',
        'msa = al.center_star(al.read_fasta(al.example_path()))',
        'print(json.dumps({"ids": list(recs), "gorilla": al.pairwise(recs["INS_HUMAN"], recs["INS_GORGO"])["identity"],',
        '  "chimp": {k: chimp[k] for k in ("identical", "columns", "identity", "differences")}, "msa": msa,',
        '  "pig": al.identity_matrix(msa)[("INS_HUMAN", "INS_PIG")]}))',
      ].join('\n'),
    );
    expect(r.ids).toEqual(['INS_HUMAN', 'INS_GORGO', 'INS_PANTR', 'INS_PIG', 'INS_BOVIN', 'INS_CHICK']);
    expect(r.gorilla).toBe(1);
    expect(r.chimp).toMatchObject({ identical: 108, columns: 110 });
    expect(r.chimp.identity).toBeCloseTo(108 / 110, 10);
    expect(r.chimp.differences).toEqual([[12, 'A', 'V'], [23, 'A', 'S']]);
    // Every row has one length, and removing the gaps gives back each sequence.
    const lengths = new Set(Object.values(r.msa).map((row) => row.length));
    expect(lengths.size).toBe(1);
    expect(r.msa.INS_HUMAN!.replace(/-/g, '')).toHaveLength(110);
    expect(r.msa.INS_BOVIN!.replace(/-/g, '')).toHaveLength(105);
    // The insulin A chain (GIVEQCC...) is conserved from chicken to human: same 21 columns at the end.
    for (const row of Object.values(r.msa)) expect(row.slice(-21)).toMatch(/^GIVEQCC[A-Z]{3}CSLYQLENYCN$/);
    expect(r.pig).toBeGreaterThan(80);
    expect(r.pig).toBeLessThan(90);
  });
});
