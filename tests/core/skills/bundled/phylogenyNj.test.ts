import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { bundledKernel } from './harness';

const k = bundledKernel();

describe('bundled skill phylogeny-nj', () => {
  it('insulins: fish, birds, mammals and primates each form a clade; the tree is drawn as SVG', async () => {
    const r = await k.json<Record<string, string[] | string>>(
      [
        'import json',
        'nj = host.skills.sidecar("phylogeny-nj")',
        'tree = nj.nj_tree(nj.read_fasta(nj.example_path()))',
        'clade = lambda *names: nj.clade_of(tree, list(names))',
        'out = {"fish": clade("INS_ONCKE", "INS_DANRE", "INS_CYPCA"), "cyprinids": clade("INS_DANRE", "INS_CYPCA"), "birds": clade("INS_CHICK", "INS_ANAPL"),',
        '       "mammals": clade("INS_HUMAN", "INS_PIG", "INS_SHEEP", "INS_CANLF"), "primates": clade("INS_HUMAN", "INS_MACFA"), "newick": nj.newick(tree),',
        '       "figure": nj.draw(tree, "figures/insulin-nj.svg")}',
        'print(json.dumps(out))',
      ].join('\n'),
    );
    expect(r.fish).toEqual(['INS_CYPCA', 'INS_DANRE', 'INS_ONCKE']);
    expect(r.cyprinids).toEqual(['INS_CYPCA', 'INS_DANRE']);
    expect(r.birds).toEqual(['INS_ANAPL', 'INS_CHICK']);
    expect(r.mammals).toEqual(['INS_BOVIN', 'INS_CANLF', 'INS_HUMAN', 'INS_MACFA', 'INS_PANTR', 'INS_PIG', 'INS_SHEEP']);
    expect(r.primates).toEqual(['INS_HUMAN', 'INS_MACFA', 'INS_PANTR']);
    expect(r.newick).toMatch(/^\(.*;$/);
    expect(fs.readFileSync(path.join(k.workspace(), r.figure as string), 'utf8')).toContain('<svg');
  });
});
