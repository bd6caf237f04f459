"""Sidecar of the phylogeny-nj skill: a neighbour-joining tree from pairwise alignment
distances (Biopython Bio.Align and Bio.Phylo), rooted at its midpoint."""

import io
import os


def example_path():
    """Twelve UniProt preproinsulins (mammals, birds, fish), shipped with the skill."""
    return os.path.join(os.path.dirname(__file__), "data", "insulins.fasta")


def read_fasta(path):
    """[{'id', 'description', 'sequence'}]; the id is UniProt's entry name when present."""
    from Bio import SeqIO

    out = []
    for r in SeqIO.parse(path, "fasta"):
        parts = r.id.split("|")
        out.append({"id": parts[2] if len(parts) == 3 else r.id, "description": r.description, "sequence": str(r.seq).upper()})
    return out


def distances(records, matrix="BLOSUM62", open_gap=-10.0, extend_gap=-0.5):
    """p-distances (1 - identity over aligned columns, gaps included) from a global
    pairwise alignment of every pair, as a Bio.Phylo DistanceMatrix."""
    from Bio import Align
    from Bio.Align import substitution_matrices
    from Bio.Phylo.TreeConstruction import DistanceMatrix

    al = Align.PairwiseAligner()
    al.mode = "global"
    al.substitution_matrix = substitution_matrices.load(matrix)
    al.open_gap_score, al.extend_gap_score = open_gap, extend_gap
    names = [r["id"] for r in records]
    lower = []
    for i, a in enumerate(records):
        row = []
        for b in records[:i]:
            best = al.align(a["sequence"], b["sequence"])[0]
            x, y = best[0], best[1]
            same = sum(1 for p, q in zip(x, y) if p == q and p != "-")
            row.append(1.0 - same / len(x))
        row.append(0.0)
        lower.append(row)
    return DistanceMatrix(names, lower)


def nj_tree(records, **scoring):
    """The neighbour-joining tree of the records' distances, rooted at its midpoint."""
    from Bio.Phylo.TreeConstruction import DistanceTreeConstructor

    tree = DistanceTreeConstructor().nj(distances(records, **scoring))
    tree.root_at_midpoint()
    tree.ladderize()
    return tree


def clade_of(tree, names):
    """The terminal names under the smallest clade holding all of `names` (a monophyly check)."""
    ancestor = tree.common_ancestor(*names)
    return sorted(t.name for t in ancestor.get_terminals())


def newick(tree):
    """The tree in Newick format (branch lengths in p-distance units)."""
    from Bio import Phylo

    out = io.StringIO()
    Phylo.write(tree, out, "newick")
    return out.getvalue().strip()


def draw(tree, path, title="Neighbour-joining tree (p-distance)"):
    """Draws the tree with matplotlib to `path` (PNG, SVG or PDF by extension); returns the path."""
    import matplotlib.pyplot as plt
    from Bio import Phylo

    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    for clade in tree.get_nonterminals():
        clade.name = None  # inner node labels are construction artefacts (Inner1...)
    fig, ax = plt.subplots(figsize=(7, 0.35 * len(tree.get_terminals()) + 1.5))
    Phylo.draw(tree, axes=ax, do_show=False)
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
