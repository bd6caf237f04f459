"""Sidecar of the insulin-quicklook skill: read a FASTA record, summarise its
composition, and plot it. Standard library and matplotlib only."""

import collections
import os

AMINO_ACIDS = "ACDEFGHIKLMNPQRSTVWY"


def example_path():
    """The UniProt FASTA of human insulin (P01308) shipped with the skill."""
    return os.path.join(os.path.dirname(__file__), "data", "P01308.fasta")


def read_fasta(path):
    """The first record of a FASTA file as (header without '>', sequence)."""
    header, lines = None, []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            line = line.strip()
            if line.startswith(">"):
                if header is not None:
                    break
                header = line[1:]
            elif line:
                lines.append(line)
    if header is None:
        raise ValueError("%s has no FASTA record (no '>' header line)" % path)
    return header, "".join(lines).upper()


def summarize(sequence):
    """Length, per-residue counts (the 20 standard amino acids, zeros included),
    fractions, and the three most common residues."""
    sequence = sequence.strip().upper()
    counts = collections.Counter(sequence)
    composition = {aa: counts.get(aa, 0) for aa in AMINO_ACIDS}
    other = len(sequence) - sum(composition.values())
    return {
        "length": len(sequence),
        "composition": composition,
        "fractions": {aa: n / len(sequence) for aa, n in composition.items()} if sequence else {},
        "non_standard": other,
        "most_common": counts.most_common(3),
    }


def plot_composition(composition, path, title="Amino-acid composition"):
    """A bar chart of residue counts saved to `path` (PNG or SVG by extension); returns the path."""
    import matplotlib.pyplot as plt

    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    fig, ax = plt.subplots(figsize=(7, 3))
    ax.bar(list(composition), list(composition.values()), color="#0072B2")
    ax.set_xlabel("residue")
    ax.set_ylabel("count")
    ax.set_title(title)
    fig.tight_layout()
    fig.savefig(path)
    plt.close(fig)
    return path
