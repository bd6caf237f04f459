/** The 3D viewer's chain focus (issue 25) lists the chains of a PDB file's ATOM records, in file order. */
import { describe, expect, it } from 'vitest';
import { pdbChains } from '../../src-renderer/src/components/panel/StructureViewer';

describe('pdbChains', () => {
  it('reads column 22 of ATOM records once each, and nothing from mmCIF', () => {
    const pdb = [
      'HEADER    HORMONE',
      'ATOM      1  N   GLY A   1      13.1   9.1  15.2  1.00 20.00           N',
      'ATOM      2  CA  GLY A   1      13.1   9.1  15.2  1.00 20.00           C',
      'HETATM    3  O   HOH B 101      13.1   9.1  15.2  1.00 20.00           O',
      'ATOM      4  N   PHE B   1      13.1   9.1  15.2  1.00 20.00           N',
      'ATOM      5  N   GLY C   1      13.1   9.1  15.2  1.00 20.00           N',
    ].join('\n');
    expect(pdbChains(pdb, 'pdb')).toEqual(['A', 'B', 'C']);
    expect(pdbChains(pdb, 'cif')).toEqual([]);
  });
});
