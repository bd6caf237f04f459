"""Sidecar of the literature-review skill: flatten science_search answers from several
databases into one list, remove duplicates (DOI, then PMID, then title), and write a
cited table. Standard library only."""

import json
import os
import re
import unicodedata


def example_path():
    """Five recorded searches (Europe PMC, OpenAlex x2, PubMed, arXiv) as the app's connectors normalised them."""
    return os.path.join(os.path.dirname(__file__), "data", "searches.json")


def load_searches(path):
    with open(path, encoding="utf-8") as handle:
        return json.load(handle)


def normalize_doi(doi):
    """'https://doi.org/10.1038/X' / 'doi:10.1038/x' -> '10.1038/x' (DOIs are case-insensitive); None if not a DOI."""
    if not doi:
        return None
    d = str(doi).strip().lower()
    d = re.sub(r"^(https?://(dx\.)?doi\.org/|doi:\s*)", "", d)
    return d if d.startswith("10.") and "/" in d else None


def normalize_title(title):
    """Accents, case, punctuation and spacing removed: a last-resort duplicate key."""
    t = unicodedata.normalize("NFKD", title or "").encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", " ", t).strip()


def _year(attrs):
    for key in ("year", "publication_year"):
        if attrs.get(key):
            return int(attrs[key])
    for key in ("pub_date", "published", "publication_date"):
        m = re.match(r"\s*(\d{4})", str(attrs.get(key) or ""))
        if m:
            return int(m.group(1))
    return None


def _first_author(attrs):
    authors = attrs.get("authors")
    if isinstance(authors, list):
        names = [a.get("name") if isinstance(a, dict) else str(a) for a in authors]
    else:
        names = [a.strip() for a in str(authors or "").rstrip(".").split(",")]
    names = [n for n in names if n]
    if not names:
        return ""
    return names[0] + (" et al." if len(names) > 1 else "")


def records_from(searches):
    """One row per record of every search. A search is what host.science.search returns
    ({'text', 'output'}) or its output ({'database', 'records', ...})."""
    rows = []
    for search in searches:
        result = search.get("output", search)
        for rec in result.get("records", []):
            attrs = rec.get("attributes") or {}
            rows.append({
                "title": rec.get("title", ""),
                "doi": normalize_doi(attrs.get("doi")),
                "pmid": str(attrs["pmid"]).rsplit("/", 1)[-1] if attrs.get("pmid") else None,
                "year": _year(attrs),
                "first_author": _first_author(attrs),
                "venue": attrs.get("journal") or attrs.get("venue") or attrs.get("primary_category") or "",
                "url": rec.get("url", ""),
                "found_in": [result.get("database", "?")],
                "ids": ["%s:%s" % (result.get("database", "?"), rec.get("id", ""))],
                "evidence_ids": [rec["evidence_id"]] if rec.get("evidence_id") else [],
            })
    return rows


def dedupe(rows):
    """Merges rows that are the same work: same DOI, else same PMID, else same normalised
    title (and year when both have one). The first row is kept; the others add their
    databases, ids, evidence ids and any field the first lacked. Returns (unique, removed)."""
    unique, index = [], {}
    removed = 0
    for row in rows:
        keys = []
        if row["doi"]:
            keys.append("doi:" + row["doi"])
        if row["pmid"]:
            keys.append("pmid:" + row["pmid"])
        title = normalize_title(row["title"])
        if title:
            keys.append("title:%s:%s" % (title, row["year"] or ""))
        hit = next((index[k] for k in keys if k in index), None)
        if hit is None:
            hit = dict(row, found_in=list(row["found_in"]), ids=list(row["ids"]), evidence_ids=list(row["evidence_ids"]))
            unique.append(hit)
        else:
            removed += 1
            for field in ("doi", "pmid", "year", "first_author", "venue", "url"):
                if not hit.get(field) and row.get(field):
                    hit[field] = row[field]
            for field in ("found_in", "ids", "evidence_ids"):
                hit[field] += [x for x in row[field] if x not in hit[field]]
        for k in keys:
            index.setdefault(k, hit)
    return unique, removed


def table(rows):
    """A Markdown table, newest first: author, year, title, venue, DOI or link, databases, and what to cite."""
    lines = ["| # | first author | year | title | venue | DOI / link | found in | cite |", "|---|---|---|---|---|---|---|---|"]
    ordered = sorted(rows, key=lambda r: (-(r["year"] or 0), normalize_title(r["title"])))
    for i, r in enumerate(ordered, 1):
        link = "https://doi.org/" + r["doi"] if r["doi"] else r["url"]
        cite = ", ".join(r["evidence_ids"]) or r["url"]
        title = r["title"].replace("|", "/")
        lines.append("| %d | %s | %s | %s | %s | %s | %s | %s |" % (i, r["first_author"], r["year"] or "n.d.", title, r["venue"], link, ", ".join(r["found_in"]), cite))
    return "\n".join(lines)


def flow(searches, unique, removed, included=None):
    """PRISMA-style counts: records identified per database, duplicates removed, records screened, included."""
    per = {}
    for search in searches:
        result = search.get("output", search)
        per[result.get("database", "?")] = per.get(result.get("database", "?"), 0) + len(result.get("records", []))
    return {"identified": per, "identified_total": sum(per.values()), "duplicates_removed": removed, "screened": len(unique), "included": len(unique) if included is None else included}
