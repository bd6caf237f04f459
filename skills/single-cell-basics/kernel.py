"""Sidecar of the single-cell-basics skill: an AnnData from a genes x cells table,
per-cell QC metrics (genes detected, total, mitochondrial share), filtering,
library-size normalisation with log1p, and a two-group marker comparison. numpy,
scipy and anndata only (no scanpy needed; the definitions follow scanpy's)."""

import os


def example_paths():
    """(expression CSV genes x cells, cell table CSV): HSMM myoblasts at 0 h and 72 h (Trapnell et al. 2014)."""
    here = os.path.join(os.path.dirname(__file__), "data")
    return os.path.join(here, "hsmm_0h_72h_fpkm.csv"), os.path.join(here, "cells.csv")


def read_table(expression_csv, cells_csv=None):
    """An AnnData (cells x genes) from a CSV with gene_id, symbol, then one column per
    cell; obs from the optional cell table (first column the cell name)."""
    import anndata
    import numpy as np
    import pandas as pd

    df = pd.read_csv(expression_csv)
    var = pd.DataFrame({"symbol": df["symbol"].astype(str).values}, index=df["gene_id"].astype(str).values)
    X = df.drop(columns=["gene_id", "symbol"]).to_numpy(dtype=np.float32).T
    obs = pd.DataFrame(index=[str(c) for c in df.columns[2:]])
    if cells_csv:
        cells = pd.read_csv(cells_csv).set_index(pd.read_csv(cells_csv).columns[0])
        cells.index = cells.index.astype(str)
        obs = obs.join(cells)
    return anndata.AnnData(X=X, obs=obs, var=var)


def qc_metrics(adata, mito_prefix="MT-"):
    """Adds to obs: n_genes_by_counts (genes > 0), total_counts, pct_counts_mt (share of
    the mitochondrial genes, symbols starting with mito_prefix); var gets 'mt' and
    n_cells_by_counts. Returns adata."""
    import numpy as np

    X = adata.X
    adata.var["mt"] = adata.var["symbol"].str.upper().str.startswith(mito_prefix.upper())
    total = np.asarray(X.sum(axis=1)).ravel()
    mt = np.asarray(X[:, adata.var["mt"].values].sum(axis=1)).ravel()
    adata.obs["n_genes_by_counts"] = np.asarray((X > 0).sum(axis=1)).ravel()
    adata.obs["total_counts"] = total
    adata.obs["pct_counts_mt"] = np.divide(100 * mt, total, out=np.zeros_like(total), where=total > 0)
    adata.var["n_cells_by_counts"] = np.asarray((X > 0).sum(axis=0)).ravel()
    return adata


def filter_cells(adata, min_genes=0, max_pct_mt=100.0):
    """Cells with at least min_genes detected and at most max_pct_mt % mitochondrial; returns (kept copy, n removed)."""
    keep = (adata.obs["n_genes_by_counts"] >= min_genes) & (adata.obs["pct_counts_mt"] <= max_pct_mt)
    return adata[keep.values].copy(), int((~keep).sum())


def normalize_log(adata, target_sum=1e4):
    """Keeps the raw values in layers['raw']; X becomes log1p(value / cell total * target_sum)."""
    import numpy as np

    adata.layers["raw"] = adata.X.copy()
    total = np.asarray(adata.X.sum(axis=1)).ravel()
    scale = np.divide(target_sum, total, out=np.zeros_like(total), where=total > 0)
    adata.X = np.log1p(adata.X * scale[:, None])
    adata.uns["normalization"] = "log1p(x / total * %g) per cell" % target_sum
    return adata


def compare(adata, gene_symbol, key, a, b):
    """One gene's normalised expression in obs[key] == a vs == b: means, the fraction of
    cells expressing it, and a two-sided Mann-Whitney U p-value."""
    import numpy as np
    from scipy.stats import mannwhitneyu

    idx = np.flatnonzero(adata.var["symbol"].values == gene_symbol)
    if not len(idx):
        raise ValueError("gene %r is not in the matrix" % gene_symbol)
    x = np.asarray(adata.X[:, idx[0]]).ravel()
    xa, xb = x[(adata.obs[key] == a).values], x[(adata.obs[key] == b).values]
    return {
        "gene": gene_symbol,
        "mean_%s" % a: float(xa.mean()),
        "mean_%s" % b: float(xb.mean()),
        "frac_%s" % a: float((xa > 0).mean()),
        "frac_%s" % b: float((xb > 0).mean()),
        "p": float(mannwhitneyu(xa, xb, alternative="two-sided").pvalue),
    }
