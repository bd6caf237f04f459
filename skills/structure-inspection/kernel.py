"""Sidecar of the structure-inspection skill: chains, residues, disulfide bonds and
inter-chain contacts of a PDB or mmCIF file (gemmi)."""

import os


def example_path():
    """wwPDB entry 4INS (pig insulin, two insulin molecules: chains A/B and C/D), shipped with the skill."""
    return os.path.join(os.path.dirname(__file__), "data", "4INS.pdb")


def read(path):
    """The structure (gemmi.Structure), with its entity information set up and waters removed."""
    import gemmi

    st = gemmi.read_structure(path)
    st.setup_entities()
    st.remove_waters()
    return st


def chains(st, model=0):
    """Per polymer chain of a model: name, number of residues, first/last residue number, one-letter sequence."""
    import gemmi

    out = []
    for chain in st[model]:
        polymer = chain.get_polymer()
        if not len(polymer):
            continue
        out.append({
            "chain": chain.name,
            "residues": len(polymer),
            "first": polymer[0].seqid.num,
            "last": polymer[len(polymer) - 1].seqid.num,
            "sequence": gemmi.one_letter_code([r.name for r in polymer]),
        })
    return out


def disulfides(st, model=0, max_distance=2.5):
    """Cys SG-SG pairs closer than max_distance Å (geometry, not the file's SSBOND
    records), each as {'a': 'A6', 'b': 'A11', 'distance': 2.03}."""
    import gemmi

    sulfurs = []
    for chain in st[model]:
        for res in chain:
            if res.name == "CYS":
                atom = res.find_atom("SG", "*")
                if atom:
                    sulfurs.append(("%s%d" % (chain.name, res.seqid.num), atom.pos))
    pairs = []
    for i in range(len(sulfurs)):
        for j in range(i + 1, len(sulfurs)):
            d = sulfurs[i][1].dist(sulfurs[j][1])
            if d <= max_distance:
                pairs.append({"a": sulfurs[i][0], "b": sulfurs[j][0], "distance": round(d, 2)})
    return pairs


def declared_disulfides(st):
    """The disulfides the file declares (SSBOND / struct_conn), for comparison with the geometry."""
    return [
        {"a": "%s%d" % (c.partner1.chain_name, c.partner1.res_id.seqid.num), "b": "%s%d" % (c.partner2.chain_name, c.partner2.res_id.seqid.num)}
        for c in st.connections
        if c.type.name == "Disulf"
    ]


def contacts(st, chain_a, chain_b, cutoff=4.0, model=0):
    """Residue pairs of chain_a and chain_b with any two atoms within cutoff Å,
    sorted: [('B24', 'D26', 3.1), ...] with the closest atom distance."""
    import gemmi

    m = st[model]
    ns = gemmi.NeighborSearch(m, st.cell, 5).populate()
    best = {}
    for res in m[chain_a]:
        for atom in res:
            for mark in ns.find_atoms(atom.pos, "\0", radius=cutoff):
                cra = mark.to_cra(m)
                if cra.chain.name != chain_b:
                    continue
                d = atom.pos.dist(cra.atom.pos)
                key = ("%s%d" % (chain_a, res.seqid.num), "%s%d" % (chain_b, cra.residue.seqid.num))
                if d <= cutoff and d < best.get(key, cutoff + 1):
                    best[key] = d
    return sorted((a, b, round(d, 2)) for (a, b), d in best.items())
