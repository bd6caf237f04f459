"""Sidecar of the sequence-alignment skill: pairwise alignment with identity, and a
center-star multiple alignment for small sets (Biopython Bio.Align)."""

import os


def example_path():
    """Six UniProt preproinsulin sequences shipped with the skill."""
    return os.path.join(os.path.dirname(__file__), "data", "insulins.fasta")


def read_fasta(path):
    """[{'id', 'description', 'sequence'}] of every record; the id is UniProt's entry name when present."""
    from Bio import SeqIO

    out = []
    for r in SeqIO.parse(path, "fasta"):
        parts = r.id.split("|")
        out.append({"id": parts[2] if len(parts) == 3 else r.id, "description": r.description, "sequence": str(r.seq).upper()})
    return out


def aligner(mode="global", matrix="BLOSUM62", open_gap=-10.0, extend_gap=-0.5):
    """A Bio.Align.PairwiseAligner with the given scoring (matrix None: match 1, mismatch -1)."""
    from Bio import Align
    from Bio.Align import substitution_matrices

    a = Align.PairwiseAligner()
    a.mode = mode
    if matrix:
        a.substitution_matrix = substitution_matrices.load(matrix)
    else:
        a.match_score, a.mismatch_score = 1.0, -1.0
    a.open_gap_score, a.extend_gap_score = open_gap, extend_gap
    return a


def _rows(alignment):
    """The two gapped rows of a pairwise alignment (alignment[i] is row i as text)."""
    return alignment[0], alignment[1]


def pairwise(a, b, **scoring):
    """The best alignment of a and b: score, gapped rows, identity over aligned columns
    (gaps included), identity over the shorter sequence, and the substitutions as
    (column, residue in a, residue in b), 1-based."""
    best = aligner(**scoring).align(a, b)[0]
    row_a, row_b = _rows(best)
    identical = sum(1 for x, y in zip(row_a, row_b) if x == y and x != "-")
    differences = [(i + 1, x, y) for i, (x, y) in enumerate(zip(row_a, row_b)) if x != y]
    return {
        "score": best.score,
        "rows": (row_a, row_b),
        "columns": len(row_a),
        "identical": identical,
        "identity": identical / len(row_a),
        "identity_shorter": identical / min(len(a), len(b)),
        "gaps": sum(1 for x, y in zip(row_a, row_b) if "-" in (x, y)),
        "differences": differences,
    }


def center_star(records, **scoring):
    """A small multiple alignment by the center-star method: the sequence with the best
    summed pairwise score is the center, the others are aligned to it and merged
    (once a gap, always a gap). Returns {id: gapped row} in input order."""
    seqs = [r["sequence"] for r in records]
    al = aligner(**scoring)
    sums = [sum(al.score(s, t) for t in seqs) for s in seqs]
    c = max(range(len(seqs)), key=lambda i: sums[i])
    center = seqs[c]
    # merged[k] = list of columns; each column holds one char per aligned sequence so far.
    merged_center = list(center)
    others = {}
    for i, s in enumerate(seqs):
        if i == c:
            continue
        row_c, row_s = _rows(al.align(center, s)[0])
        # Bring the new pair and the current multiple alignment onto common center gaps.
        new_center, new_rows, new_s = [], {k: [] for k in others}, []
        p = q = 0
        while p < len(merged_center) or q < len(row_c):
            mc = merged_center[p] if p < len(merged_center) else None
            pc = row_c[q] if q < len(row_c) else None
            if mc == "-" and pc != "-":
                new_center.append("-")
                for k in others:
                    new_rows[k].append(others[k][p])
                new_s.append("-")
                p += 1
            elif pc == "-" and mc != "-":
                new_center.append("-")
                for k in others:
                    new_rows[k].append("-")
                new_s.append(row_s[q])
                q += 1
            else:
                new_center.append(mc)
                for k in others:
                    new_rows[k].append(others[k][p])
                new_s.append(row_s[q])
                p += 1
                q += 1
        merged_center, others = new_center, new_rows
        others[i] = new_s
    rows = dict(others)
    rows[c] = merged_center
    return {records[i]["id"]: "".join(rows[i]) for i in range(len(records))}


def identity_matrix(msa):
    """Percent identity of every pair of rows of a multiple alignment (columns where both have a gap skipped)."""
    ids = list(msa)
    out = {}
    for x in ids:
        for y in ids:
            cols = [(a, b) for a, b in zip(msa[x], msa[y]) if not (a == "-" and b == "-")]
            same = sum(1 for a, b in cols if a == b)
            out[(x, y)] = round(100.0 * same / len(cols), 2) if cols else 0.0
    return out
