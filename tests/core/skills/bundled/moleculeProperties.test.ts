import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

interface Row {
  name: string;
  formula: string;
  mw: number;
  lipinski_hbd: number;
  lipinski_hba: number;
  violations: string[];
  lipinski_pass: boolean;
}

describe('bundled skill molecule-properties', () => {
  it('aspirin C9H8O4 180.16 passes the rule of five, sucrose fails; salicylic acid is most similar to aspirin', async () => {
    const r = await k.json<{ table: Row[]; nearest: { name: string; tanimoto: number }[]; bad: string }>(
      [
        'import json',
        'mp = host.skills.sidecar("molecule-properties")',
        'rows = mp.read_csv(mp.example_path())',
        'try:\n    mp.properties("C1CC")\n    bad = ""\nexcept ValueError as e:\n    bad = str(e)',
        'print(json.dumps({"table": mp.table(rows), "nearest": mp.similar(rows[0]["smiles"], rows[1:], top=2), "bad": bad}))',
      ].join('\n'),
    );
    const by = Object.fromEntries(r.table.map((row) => [row.name, row]));
    expect(by.aspirin).toMatchObject({ formula: 'C9H8O4', mw: 180.16, lipinski_hbd: 1, lipinski_hba: 4, violations: [], lipinski_pass: true });
    // PubChem's molecular weights of the others, to two decimals.
    expect([by.ibuprofen!.mw, by.caffeine!.mw, by.paracetamol!.mw, by['salicylic acid']!.mw]).toEqual([206.28, 194.19, 151.16, 138.12]);
    expect(by.caffeine!.formula).toBe('C8H10N4O2');
    expect(by.sucrose).toMatchObject({ formula: 'C12H22O11', lipinski_hbd: 8, lipinski_hba: 11, lipinski_pass: false });
    expect(by.atorvastatin!.violations).toContain('MW > 500');
    expect(r.nearest[0]!.name).toBe('salicylic acid');
    expect(r.nearest[0]!.tanimoto).toBeGreaterThan(r.nearest[1]!.tanimoto);
    expect(r.bad).toBe("not a valid SMILES: 'C1CC'");
  });
});
