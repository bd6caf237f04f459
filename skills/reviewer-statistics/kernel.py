"""Sidecar of the reviewer-statistics skill: the test that fits the design, an effect
size with its confidence interval, and multiple-testing correction, reported in one
sentence. scipy and statsmodels."""

import csv
import math
import os


def example_paths():
    """(sleep.csv, plant_growth.csv): R's `sleep` (Student 1908) and `PlantGrowth` (Dobson 1983) data."""
    here = os.path.join(os.path.dirname(__file__), "data")
    return os.path.join(here, "sleep.csv"), os.path.join(here, "plant_growth.csv")


def read_csv(path):
    with open(path, newline="", encoding="utf-8") as handle:
        return list(csv.DictReader(handle))


def groups(rows, value, by):
    """{group: [float values]} in first-seen order."""
    out = {}
    for row in rows:
        out.setdefault(row[by], []).append(float(row[value]))
    return out


def _normal(x, alpha=0.05):
    from scipy import stats

    return len(x) < 3 or stats.shapiro(x).pvalue > alpha


def paired(before, after, method="auto", alpha=0.05):
    """Paired design (same subjects twice). method 't' (paired t-test), 'wilcoxon'
    (signed-rank), or 'auto': Shapiro-Wilk on the differences decides (its p is
    reported as normality_p: say you pre-tested, or better, choose the test in advance).
    Effect size: Cohen's d_z (mean difference / SD of differences) and the 95% CI of the
    mean difference."""
    import numpy as np
    from scipy import stats

    d = np.asarray(after, float) - np.asarray(before, float)
    n = len(d)
    mean, sd = float(d.mean()), float(d.std(ddof=1))
    half = stats.t.ppf(0.975, n - 1) * sd / math.sqrt(n)
    normality = float(stats.shapiro(d).pvalue) if n >= 3 else None
    if method == "auto":
        method = "t" if normality is None or normality > alpha else "wilcoxon"
    common = {"n": n, "mean_difference": mean, "ci95": (mean - half, mean + half), "effect": "d_z", "effect_size": mean / sd, "normality_p": normality}
    if method == "t":
        t = stats.ttest_rel(after, before)
        return dict(common, test="paired t-test", statistic=float(t.statistic), df=n - 1, p=float(t.pvalue))
    if method == "wilcoxon":
        w = stats.wilcoxon(after, before)
        return dict(common, test="Wilcoxon signed-rank", statistic=float(w.statistic), df=None, p=float(w.pvalue))
    raise ValueError("method must be 'auto', 't' or 'wilcoxon', not %r" % (method,))


def two_groups(a, b, alpha=0.05):
    """Independent groups. Welch's t-test (no equal-variance assumption) when both look
    normal, else Mann-Whitney U. Effect size: Hedges' g (bias-corrected Cohen's d)."""
    import numpy as np
    from scipy import stats

    a, b = np.asarray(a, float), np.asarray(b, float)
    na, nb = len(a), len(b)
    pooled = math.sqrt(((na - 1) * a.var(ddof=1) + (nb - 1) * b.var(ddof=1)) / (na + nb - 2))
    g = (b.mean() - a.mean()) / pooled * (1 - 3 / (4 * (na + nb) - 9))
    if _normal(a, alpha) and _normal(b, alpha):
        t = stats.ttest_ind(b, a, equal_var=False)
        va, vb = a.var(ddof=1) / na, b.var(ddof=1) / nb
        df = (va + vb) ** 2 / (va**2 / (na - 1) + vb**2 / (nb - 1))
        return {"test": "Welch t-test", "statistic": float(t.statistic), "df": float(df), "p": float(t.pvalue), "n": (na, nb), "effect": "Hedges g", "effect_size": float(g)}
    u = stats.mannwhitneyu(b, a, alternative="two-sided")
    return {"test": "Mann-Whitney U", "statistic": float(u.statistic), "df": None, "p": float(u.pvalue), "n": (na, nb), "effect": "Hedges g", "effect_size": float(g)}


def several_groups(named, alpha=0.05, correction="holm"):
    """Three or more independent groups: one-way ANOVA with eta squared when every group
    looks normal and Levene's test finds no unequal variances, else Kruskal-Wallis;
    then pairwise two_groups() comparisons with `correction` (holm by default)."""
    from scipy import stats

    names = list(named)
    values = [named[k] for k in names]
    parametric = all(_normal(v, alpha) for v in values) and stats.levene(*values).pvalue > alpha
    if parametric:
        f = stats.f_oneway(*values)
        allv = [x for v in values for x in v]
        grand = sum(allv) / len(allv)
        ss_between = sum(len(v) * (sum(v) / len(v) - grand) ** 2 for v in values)
        ss_total = sum((x - grand) ** 2 for x in allv)
        omnibus = {"test": "one-way ANOVA", "statistic": float(f.statistic), "df": (len(values) - 1, len(allv) - len(values)), "p": float(f.pvalue), "effect": "eta squared", "effect_size": ss_between / ss_total}
    else:
        h = stats.kruskal(*values)
        omnibus = {"test": "Kruskal-Wallis", "statistic": float(h.statistic), "df": len(values) - 1, "p": float(h.pvalue), "effect": None, "effect_size": None}
    pairs = []
    for i in range(len(names)):
        for j in range(i + 1, len(names)):
            r = two_groups(named[names[i]], named[names[j]], alpha)
            pairs.append(dict(r, a=names[i], b=names[j]))
    for pair, q in zip(pairs, adjust([p["p"] for p in pairs], correction)):
        pair["p_adjusted"] = q
    omnibus["pairwise"] = pairs
    omnibus["correction"] = correction
    return omnibus


def adjust(pvalues, method="holm"):
    """Adjusted p-values: 'holm' (family-wise), 'bonferroni', or 'fdr_bh' (Benjamini-Hochberg)."""
    from statsmodels.stats.multitest import multipletests

    return [float(q) for q in multipletests(pvalues, method=method)[1]]


def sentence(result):
    """One reportable sentence: test, statistic with df, p, effect size (and CI when known)."""
    df = result.get("df")
    if isinstance(df, tuple):
        df_text = "(%s, %s)" % df
    elif df is None:
        df_text = ""
    else:
        df_text = "(%.3g)" % df
    stat = {"paired t-test": "t", "Welch t-test": "t", "one-way ANOVA": "F", "Kruskal-Wallis": "H"}.get(result["test"], "statistic")
    text = "%s: %s%s = %.2f, p = %.3g" % (result["test"], stat, df_text, result["statistic"], result["p"])
    if result.get("effect_size") is not None:
        text += ", %s = %.2f" % (result["effect"], result["effect_size"])
    if result.get("ci95"):
        text += ", mean difference %.2f (95%% CI %.2f to %.2f)" % ((result["mean_difference"],) + tuple(result["ci95"]))
    return text
