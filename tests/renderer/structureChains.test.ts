/**
 * The 3D viewer's controls (issue 25): the chains of a PDB file's ATOM records in file
 * order, the residues it has, the residue a user types to focus (with the chain when
 * several chains have it), and colouring by hydrophobicity (a residue property).
 */
import { describe, expect, it } from 'vitest';
import { pdbChains } from '../../src-renderer/src/components/panel/StructureViewer';
import { colourSpec, hydropathyColour, KYTE_DOOLITTLE, parseResidue, pdbResidues } from '../../src-renderer/src/components/panel/structureScene';

const pdb = [
  'HEADER    HORMONE',
  'ATOM      1  N   GLY A   1      13.1   9.1  15.2  1.00 20.00           N',
  'ATOM      2  CA  GLY A   1      13.1   9.1  15.2  1.00 20.00           C',
  'HETATM    3  O   HOH B 101      13.1   9.1  15.2  1.00 20.00           O',
  'ATOM      4  N   PHE B   1      13.1   9.1  15.2  1.00 20.00           N',
  'ATOM      5  N   ASN A  21      13.1   9.1  15.2  1.00 20.00           N',
  'ATOM      6  N   GLY C   1      13.1   9.1  15.2  1.00 20.00           N',
].join('\n');

describe('pdbChains', () => {
  it('reads column 22 of ATOM records once each, and nothing from mmCIF', () => {
    expect(pdbChains(pdb, 'pdb')).toEqual(['A', 'B', 'C']);
    expect(pdbChains(pdb, 'cif')).toEqual([]);
  });
});

describe('residue focus', () => {
  it('lists the ATOM residues as chain:number (waters of HETATM records are not residues to focus)', () => {
    expect([...pdbResidues(pdb)]).toEqual(['A:1', 'B:1', 'A:21', 'C:1']);
  });

  it('reads "A:21", "A 21", "A21" and a number only one chain has; asks which chain when several have it', () => {
    const residues = pdbResidues(pdb);
    for (const input of ['A:21', 'A 21', 'A21', ' 21 ']) expect(parseResidue(input, residues), input).toEqual({ chain: 'A', resi: 21 });
    expect(parseResidue('1', residues)).toEqual({ error: 'ambiguous', choices: ['A:1', 'B:1', 'C:1'] });
    expect(parseResidue('B:21', residues)).toEqual({ error: 'missing' });
    expect(parseResidue('99', residues)).toEqual({ error: 'missing' });
    expect(parseResidue('twenty', residues)).toEqual({ error: 'format' });
  });
});

describe('colour by hydrophobicity', () => {
  it('runs from teal (most hydrophilic) through white to orange (most hydrophobic), one colour per amino acid', () => {
    expect(hydropathyColour(-4.5)).toBe(0x2f6f73);
    expect(hydropathyColour(0)).toBe(0xffffff);
    expect(hydropathyColour(4.5)).toBe(0xd55e00);
    const spec = colourSpec('hydrophobicity') as { colorscheme: { prop: string; map: Record<string, number> } };
    expect(spec.colorscheme.prop).toBe('resn');
    expect(Object.keys(spec.colorscheme.map)).toHaveLength(20);
    expect(spec.colorscheme.map.ILE).toBe(hydropathyColour(KYTE_DOOLITTLE.ILE!));
    expect(colourSpec('chain')).toEqual({ colorscheme: 'chain' });
  });
});
