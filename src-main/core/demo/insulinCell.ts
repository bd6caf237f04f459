/**
 * The science-plane step of the insulin story: one Python cell, run in the session's
 * sandboxed kernel. It re-reads the UniProt sequence through the host (a cited
 * retrieval), reads the downloaded structure, computes the sequence properties of the
 * precursor and of the processed hormone's B and A chains, draws one figure (left open:
 * the host saves it as an artifact), saves the FASTA and the structure as artifacts,
 * and prints one RESULT line of JSON for the answer.
 */
export const INSULIN_CELL = String.raw`import json
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt

# The sequence, through the host: a cited retrieval (same evidence id as the tool call).
found = host.science.search(database="uniprot", operation="fasta", query="P01308")
record = found["output"]["records"][0]
seq = record["attributes"]["sequence"]
uniprot_evidence = record.get("evidence_id")

# UniProt P01308 features: signal 1-24, B chain 25-54, C peptide 57-87, A chain 90-110.
chains = {"B": seq[24:54], "A": seq[89:110]}

KD = {"A": 1.8, "R": -4.5, "N": -3.5, "D": -3.5, "C": 2.5, "Q": -3.5, "E": -3.5, "G": -0.4, "H": -3.2, "I": 4.5,
      "L": 3.8, "K": -3.9, "M": 1.9, "F": 2.8, "P": -1.6, "S": -0.8, "T": -0.7, "W": -0.9, "Y": -1.3, "V": 4.2}
MASS = {"A": 71.0788, "R": 156.1875, "N": 114.1038, "D": 115.0886, "C": 103.1388, "E": 129.1155, "Q": 128.1307,
        "G": 57.0519, "H": 137.1411, "I": 113.1594, "L": 113.1594, "K": 128.1741, "M": 131.1926, "F": 147.1766,
        "P": 97.1167, "S": 87.0782, "T": 101.1051, "W": 186.2132, "Y": 163.1760, "V": 99.1326}

def props(s):
    return {"length": len(s), "mass_da": round(sum(MASS[a] for a in s) + 18.015, 1),
            "gravy": round(sum(KD[a] for a in s) / len(s), 3), "cysteines": s.count("C")}

composition = {a: seq.count(a) for a in sorted(set(seq))}

# The structure the tool call downloaded into the workspace.
atoms = {}
with open("structures/4INS.pdb") as f:
    for line in f:
        if line.startswith("ATOM"):
            atoms[line[21]] = atoms.get(line[21], 0) + 1
pdb_title = ""
with open("structures/4INS.pdb") as f:
    for line in f:
        if line.startswith("TITLE"):
            pdb_title += line[10:].strip() + " "

# The reproducible products: the FASTA and the structure as versioned artifacts.
import os
os.makedirs("sequences", exist_ok=True)
with open("sequences/P01308.fasta", "w") as f:
    f.write(">" + record["attributes"]["header"] + "\n")
    for i in range(0, len(seq), 60):
        f.write(seq[i:i + 60] + "\n")
fasta_artifact = host.save_artifact(path="sequences/P01308.fasta")["output"]
structure_artifact = host.save_artifact(path="structures/4INS.pdb")["output"]

# One figure: composition, and the hydropathy profile with the B and A chains marked.
fig, (left, right) = plt.subplots(1, 2, figsize=(11, 4))
left.bar(list(composition), list(composition.values()), color="#2f6f73")
left.set_title("P01308 amino-acid composition")
left.set_xlabel("residue")
left.set_ylabel("count")
window = 9
profile = [sum(KD[a] for a in seq[i:i + window]) / window for i in range(len(seq) - window + 1)]
right.plot(range(window // 2 + 1, window // 2 + 1 + len(profile)), profile, color="#333333")
right.axvspan(25, 54, color="#2f6f73", alpha=0.2, label="B chain 25-54")
right.axvspan(90, 110, color="#c8702a", alpha=0.2, label="A chain 90-110")
right.axhline(0, color="#999999", linewidth=0.8)
right.set_title("Kyte-Doolittle hydropathy (window 9)")
right.set_xlabel("position")
right.legend(loc="lower left")
fig.tight_layout()

result = {
    "precursor": props(seq),
    "chains": {name: dict(props(s), sequence=s) for name, s in chains.items()},
    "composition": composition,
    "structure": {"atoms_per_chain": atoms, "title": pdb_title.strip()},
    "artifacts": {"fasta": fasta_artifact["id"], "structure": structure_artifact["id"]},
    "evidence": {"uniprot": uniprot_evidence, "fasta_artifact": fasta_artifact["evidenceId"], "structure_artifact": structure_artifact["evidenceId"]},
}
print("RESULT " + json.dumps(result))
`;
