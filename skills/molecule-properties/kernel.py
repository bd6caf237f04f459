"""Sidecar of the molecule-properties skill: RDKit descriptors, Lipinski's rule of five
and Morgan-fingerprint Tanimoto similarity."""

import csv
import os


def example_path():
    """Ten known compounds (name, PubChem CID, SMILES), shipped with the skill."""
    return os.path.join(os.path.dirname(__file__), "data", "drugs.csv")


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def mol(smiles):
    """An RDKit molecule, or a ValueError naming the SMILES that does not parse."""
    from rdkit import Chem

    m = Chem.MolFromSmiles(smiles)
    if m is None:
        raise ValueError("not a valid SMILES: %r" % smiles)
    return m


def largest_fragment(smiles):
    """The largest covalent fragment (drops counter-ions and solvents of a salt form)."""
    from rdkit import Chem

    frags = Chem.GetMolFrags(mol(smiles), asMols=True)
    return Chem.MolToSmiles(max(frags, key=lambda f: f.GetNumHeavyAtoms()))


def properties(smiles):
    """Formula, average MW, exact mass, Crippen cLogP, Lipinski donors (NH+OH) and
    acceptors (N+O), TPSA, rotatable bonds, rings, and the rule-of-five verdict."""
    from rdkit.Chem import Crippen, Descriptors, Lipinski, rdMolDescriptors

    m = mol(smiles)
    p = {
        "formula": rdMolDescriptors.CalcMolFormula(m),
        "mw": round(Descriptors.MolWt(m), 2),
        "exact_mass": round(Descriptors.ExactMolWt(m), 4),
        "clogp": round(Crippen.MolLogP(m), 2),
        "hbd": Lipinski.NumHDonors(m),
        "hba": Lipinski.NumHAcceptors(m),
        "lipinski_hbd": rdMolDescriptors.CalcNumLipinskiHBD(m),
        "lipinski_hba": rdMolDescriptors.CalcNumLipinskiHBA(m),
        "tpsa": round(rdMolDescriptors.CalcTPSA(m), 2),
        "rotatable_bonds": rdMolDescriptors.CalcNumRotatableBonds(m),
        "rings": rdMolDescriptors.CalcNumRings(m),
    }
    violations = []
    if p["mw"] > 500:
        violations.append("MW > 500")
    if p["clogp"] > 5:
        violations.append("cLogP > 5")
    if p["lipinski_hbd"] > 5:
        violations.append("H-bond donors > 5")
    if p["lipinski_hba"] > 10:
        violations.append("H-bond acceptors > 10")
    p["violations"] = violations
    p["lipinski_pass"] = len(violations) <= 1
    return p


def table(rows, smiles_key="smiles"):
    """properties() for each row, merged with the row's own fields."""
    return [dict(row, **properties(row[smiles_key])) for row in rows]


def fingerprint(smiles, radius=2, bits=2048):
    from rdkit.Chem import AllChem

    return AllChem.GetMorganFingerprintAsBitVect(mol(smiles), radius, nBits=bits)


def similar(query_smiles, rows, top=5, smiles_key="smiles", radius=2, bits=2048):
    """The rows most similar to the query (Morgan radius 2, 2048 bits, Tanimoto), best
    first, each with its 'tanimoto'; an exact duplicate of the query scores 1.0."""
    from rdkit import DataStructs

    q = fingerprint(query_smiles, radius, bits)
    scored = [dict(row, tanimoto=round(DataStructs.TanimotoSimilarity(q, fingerprint(row[smiles_key], radius, bits)), 3)) for row in rows]
    return sorted(scored, key=lambda r: -r["tanimoto"])[:top]
