"""Sidecar of the enrichment-analysis skill: over-representation of gene sets in a gene
list by the hypergeometric test (one-sided), with Benjamini-Hochberg correction."""

import json
import os


def example_paths():
    """(gene sets JSON, HIF-1 target list) shipped with the skill."""
    here = os.path.join(os.path.dirname(__file__), "data")
    return os.path.join(here, "gene_sets.json"), os.path.join(here, "hif1_targets.txt")


def read_gene_sets(path):
    """{set name: [genes]} from a JSON file ({'sets': {...}}) or a GMT file (name, description, genes...)."""
    if path.endswith(".gmt"):
        sets = {}
        with open(path, encoding="utf-8") as handle:
            for line in handle:
                parts = line.rstrip("\n").split("\t")
                if len(parts) >= 3:
                    sets[parts[0]] = [g for g in parts[2:] if g]
        return sets
    with open(path, encoding="utf-8") as handle:
        data = json.load(handle)
    return data.get("sets", data)


def read_gene_list(path):
    """Genes one per line; '#' comments and blank lines skipped; upper-cased, de-duplicated in order."""
    seen, out = set(), []
    with open(path, encoding="utf-8") as handle:
        for line in handle:
            gene = line.split("#", 1)[0].strip().upper()
            if gene and gene not in seen:
                seen.add(gene)
                out.append(gene)
    return out


def bh(pvalues):
    """Benjamini-Hochberg adjusted p-values (step-up, monotone, capped at 1), in input order."""
    n = len(pvalues)
    order = sorted(range(n), key=lambda i: pvalues[i])
    adjusted = [0.0] * n
    running = 1.0
    for rank in range(n, 0, -1):
        i = order[rank - 1]
        running = min(running, pvalues[i] * n / rank)
        adjusted[i] = min(running, 1.0)
    return adjusted


def enrich(hits, gene_sets, universe=None, universe_size=None, min_size=3):
    """One row per gene set: overlap k of the hit list (size n) with the set (size K)
    in a universe of N genes; p = P(X >= k), X ~ Hypergeometric(N, K, n); fold
    enrichment (k/n)/(K/N); BH-adjusted p over the sets tested. Give `universe` (the
    genes that could have been hits: measured, annotated) or `universe_size` when only
    the count is known. Hits and set members outside a given universe are dropped."""
    from scipy.stats import hypergeom

    hits = {g.upper() for g in hits}
    if universe is not None:
        universe = {g.upper() for g in universe}
        hits &= universe
        N = len(universe)
    elif universe_size is not None:
        N = int(universe_size)
    else:
        raise ValueError("give the universe (genes that could have been hits) or universe_size; the union of the sets is rarely right")
    n = len(hits)
    rows = []
    for name, members in gene_sets.items():
        members = {g.upper() for g in members}
        if universe is not None:
            members &= universe
        K = len(members)
        if K < min_size:
            continue
        overlap = sorted(hits & members)
        k = len(overlap)
        p = float(hypergeom.sf(k - 1, N, K, n)) if k else 1.0
        rows.append({"set": name, "set_size": K, "overlap": k, "hits": n, "universe": N, "fold": (k / n) / (K / N) if n and K else 0.0, "p": p, "genes": overlap})
    for row, q in zip(rows, bh([r["p"] for r in rows])):
        row["padj"] = q
    return sorted(rows, key=lambda r: (r["p"], r["set"]))


def table(rows, alpha=0.05):
    """A Markdown table of the results (set, k/K, fold, p, BH padj, significant)."""
    lines = ["| gene set | overlap | set size | fold | p | padj (BH) | padj < %g |" % alpha, "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append("| %s | %d | %d | %.1f | %.2e | %.2e | %s |" % (r["set"], r["overlap"], r["set_size"], r["fold"], r["p"], r["padj"], "yes" if r["padj"] < alpha else "no"))
    return "\n".join(lines)
