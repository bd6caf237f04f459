"""Sidecar of the protein-properties skill: ProtParam values of a protein sequence
(Biopython), with the conventions stated in the result."""

import os

STANDARD = set("ACDEFGHIKLMNPQRSTVWY")


def example_path():
    """UniProt FASTA of human preproinsulin (P01308), shipped with the skill."""
    return os.path.join(os.path.dirname(__file__), "data", "P01308.fasta")


def read_fasta(path):
    """All records of a FASTA file: [{'id', 'description', 'sequence'}] (Bio.SeqIO)."""
    from Bio import SeqIO

    return [{"id": r.id, "description": r.description, "sequence": str(r.seq).upper()} for r in SeqIO.parse(path, "fasta")]


def segment(sequence, start, end):
    """Residues start..end, 1-based and inclusive, as UniProt numbers features."""
    if not 1 <= start <= end <= len(sequence):
        raise ValueError("segment %d-%d is outside a sequence of %d residues" % (start, end, len(sequence)))
    return sequence[start - 1 : end]


def properties(sequence):
    """Length, average mass (Da), theoretical pI, GRAVY, instability and aliphatic
    indices, aromaticity, extinction coefficients at 280 nm (M^-1 cm^-1) and the
    secondary-structure fractions (helix, turn, sheet) of a protein sequence."""
    from Bio.SeqUtils.ProtParam import ProteinAnalysis

    seq = "".join(sequence.split()).upper()
    unknown = sorted(set(seq) - STANDARD)
    if not seq or unknown:
        raise ValueError("ProtParam needs the 20 standard amino acids; found %s" % (", ".join(unknown) or "an empty sequence"))
    pa = ProteinAnalysis(seq)
    reduced, cystines = pa.molar_extinction_coefficient()
    counts = pa.count_amino_acids()
    aliphatic = 100 * (counts["A"] + 2.9 * counts["V"] + 3.9 * (counts["I"] + counts["L"])) / len(seq)
    helix, turn, sheet = pa.secondary_structure_fraction()
    return {
        "length": len(seq),
        "molecular_weight": round(pa.molecular_weight(), 2),
        "isoelectric_point": round(pa.isoelectric_point(), 2),
        "gravy": round(pa.gravy(), 3),
        "instability_index": round(pa.instability_index(), 2),
        "unstable": pa.instability_index() > 40,
        "aliphatic_index": round(aliphatic, 2),
        "aromaticity": round(pa.aromaticity(), 4),
        "extinction_280_reduced": reduced,
        "extinction_280_cystines": cystines,
        "helix_turn_sheet": (round(helix, 3), round(turn, 3), round(sheet, 3)),
        "method": "Biopython ProtParam (ExPASy formulas); average isotopic masses; unmodified polypeptide",
    }
