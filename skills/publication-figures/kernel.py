"""Sidecar of the publication-figures skill: a journal-style matplotlib setup, the
Okabe-Ito colour-blind-safe palette, a group-comparison plot that shows every point,
and vector export (SVG and PDF, fonts kept as text)."""

import csv
import os

# Okabe M, Ito K (2008) Color Universal Design: distinguishable by people with the
# common colour-vision deficiencies. Black is kept last for text-like marks.
OKABE_ITO = {
    "orange": "#E69F00",
    "sky blue": "#56B4E9",
    "bluish green": "#009E73",
    "yellow": "#F0E442",
    "blue": "#0072B2",
    "vermillion": "#D55E00",
    "reddish purple": "#CC79A7",
    "black": "#000000",
}
PALETTE = [OKABE_ITO[k] for k in ("blue", "vermillion", "bluish green", "orange", "sky blue", "reddish purple", "yellow", "black")]

# Widths of a single and a double column (inches), as most journals ask (85 mm / 178 mm).
SINGLE_COLUMN = 85 / 25.4
DOUBLE_COLUMN = 178 / 25.4


def example_path():
    """R's PlantGrowth data (Dobson 1983): dried weight of plants in three groups of 10."""
    return os.path.join(os.path.dirname(__file__), "data", "plant_growth.csv")


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def style(font_size=8):
    """Journal defaults for matplotlib: sans-serif at 7-9 pt, thin axes, no top/right
    spines, the Okabe-Ito cycle, text kept as text in SVG and Type 42 fonts in PDF."""
    import matplotlib as mpl
    from cycler import cycler

    mpl.rcParams.update({
        "font.family": "sans-serif",
        "font.size": font_size,
        "axes.labelsize": font_size,
        "axes.titlesize": font_size + 1,
        "xtick.labelsize": font_size - 1,
        "ytick.labelsize": font_size - 1,
        "legend.fontsize": font_size - 1,
        "axes.linewidth": 0.8,
        "axes.spines.top": False,
        "axes.spines.right": False,
        "axes.prop_cycle": cycler(color=PALETTE),
        "svg.fonttype": "none",
        "pdf.fonttype": 42,
        "savefig.bbox": "tight",
        "savefig.dpi": 300,
    })


def group_plot(groups, ylabel, path_stem, title=None, width=SINGLE_COLUMN, height=2.4):
    """Every observation as a jittered point, with the group mean and 95% CI (t), one
    colour per group. Saved as <path_stem>.svg and .pdf; returns the paths and the
    means/CIs drawn (so the text can quote the same numbers)."""
    import numpy as np
    import matplotlib.pyplot as plt
    from scipy import stats

    style()
    names = list(groups)
    fig, ax = plt.subplots(figsize=(width, height))
    rng = np.random.default_rng(0)  # fixed jitter: the same figure every time
    summary = {}
    for i, name in enumerate(names):
        y = np.asarray(groups[name], float)
        colour = PALETTE[i % len(PALETTE)]
        ax.scatter(i + rng.uniform(-0.12, 0.12, len(y)), y, s=10, color=colour, alpha=0.8, linewidths=0, zorder=2)
        mean = float(y.mean())
        half = float(stats.t.ppf(0.975, len(y) - 1) * y.std(ddof=1) / np.sqrt(len(y)))
        ax.errorbar(i + 0.28, mean, yerr=half, fmt="o", color="black", ms=3, capsize=2, lw=0.8, zorder=3)
        summary[name] = {"n": len(y), "mean": mean, "ci95": (mean - half, mean + half), "colour": colour}
    ax.set_xticks(range(len(names)), names)
    ax.set_ylabel(ylabel)
    if title:
        ax.set_title(title)
    folder = os.path.dirname(path_stem)
    if folder:
        os.makedirs(folder, exist_ok=True)
    paths = []
    for ext in ("svg", "pdf"):
        fig.savefig("%s.%s" % (path_stem, ext))
        paths.append("%s.%s" % (path_stem, ext))
    plt.close(fig)
    return {"paths": paths, "groups": summary}
