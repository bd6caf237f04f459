import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

describe('bundled skill structure-inspection', () => {
  it('4INS: chains A-D of 21/30 residues, the six insulin disulfides from geometry match SSBOND, B24-B26 pair with D26-D24', async () => {
    const r = await k.json<{ chains: { chain: string; residues: number; sequence: string }[]; ss: { a: string; b: string; distance: number }[]; declared: { a: string; b: string }[]; contacts: [string, string, number][] }>(
      [
        'import json',
        'si = host.skills.sidecar("structure-inspection")',
        'st = si.read(si.example_path())',
        'print(json.dumps({"chains": si.chains(st), "ss": si.disulfides(st), "declared": si.declared_disulfides(st), "contacts": si.contacts(st, "B", "D")}))',
      ].join('\n'),
    );
    expect(r.chains.map((c) => [c.chain, c.residues])).toEqual([['A', 21], ['B', 30], ['C', 21], ['D', 30]]);
    // Pig insulin: A chain identical to human, B30 Ala (human Thr).
    expect(r.chains[0]!.sequence).toBe('GIVEQCCTSICSLYQLENYCN');
    expect(r.chains[1]!.sequence).toBe('FVNQHLCGSHLVEALYLVCGERGFFYTPKA');
    const pairs = r.ss.map((s) => `${s.a}-${s.b}`);
    expect(pairs).toEqual(['A6-A11', 'A7-B7', 'A20-B19', 'C6-C11', 'C7-D7', 'C20-D19']);
    expect(r.declared.map((s) => `${s.a}-${s.b}`)).toEqual(pairs);
    for (const s of r.ss) {
      expect(s.distance).toBeGreaterThan(1.9);
      expect(s.distance).toBeLessThan(2.1);
    }
    const contact = (a: string, b: string) => r.contacts.find(([x, y]) => x === a && y === b);
    // The dimer's antiparallel beta-sheet: B24 and B26 hydrogen-bond to D26 and D24 (about 2.9 A).
    expect(contact('B24', 'D26')![2]).toBeLessThan(3.2);
    expect(contact('B26', 'D24')![2]).toBeLessThan(3.2);
  });
});
