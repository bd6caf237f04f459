import { normalizeDoi, parseArxivId } from '../science/workIdentity';
import type { BibEntry } from './bibEntry';
import { ID_KINDS, type IdKind, type WorkKeys } from './workKeys';

/**
 * One bibliography entry per work, however many routes reached it: the arXiv record, the
 * PDF of it fetched from arxiv.org and the pages of that PDF read; the published version
 * its arXiv record names by DOI; one DOI found through Crossref, PubMed and OpenAlex.
 * Records join when they share an identifier or a link (workKeys.ts), and never when they
 * name different DOIs, e-prints, PMIDs or PMCIDs: a conference paper and its journal
 * version, or two e-prints, stay apart even when a third record names both.
 */

export interface WorkRecord {
  entry: BibEntry;
  keys: WorkKeys;
  /** The record names the work's own title (not one made up for the record). */
  declaresTitle: boolean;
}

type Ids = Partial<Record<IdKind, string>>;

const TYPE_RANK: Record<BibEntry['type'], number> = { article: 3, preprint: 2, document: 1, web: 0 };
const CONTENT = ['journal', 'volume', 'issue', 'pages', 'publisher'] as const;

/** How much of a reference the record gives: a published article before a preprint, a PDF or a page; then its filled fields. */
function richness(e: BibEntry): number {
  const filled = CONTENT.filter((k) => e[k]).length + (e.names.length ? 1 : 0) + (e.year !== null ? 1 : 0);
  return TYPE_RANK[e.type] * 10 + filled;
}

const compatible = (a: Ids, b: Ids) => ID_KINDS.every((k) => !a[k] || !b[k] || a[k] === b[k]);

/** The records grouped by work, each group in record order, groups in the order of their first record. */
function groups(records: readonly WorkRecord[]): { members: WorkRecord[]; ids: Ids }[] {
  const parent = records.map((_, i) => i);
  const ids: Ids[] = records.map((r) => ({ ...r.keys.ids }));
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const owners = new Map<string, number[]>();
  records.forEach((r, i) => {
    const keys = [...ID_KINDS.filter((k) => r.keys.ids[k]).map((k) => `${k}:${r.keys.ids[k]}`), ...r.keys.links];
    for (const key of keys) {
      const list = owners.get(key) ?? [];
      for (const j of list) {
        const [a, b] = [find(i), find(j)];
        if (a === b || !compatible(ids[a]!, ids[b]!)) continue;
        // The earlier record's group absorbs the later one: the entry keeps its first place.
        const [root, other] = a < b ? [a, b] : [b, a];
        parent[other] = root;
        ids[root] = { ...ids[other], ...ids[root] };
      }
      // One owner per group: a link many records share (one page fetched again and again) stays one check.
      owners.set(key, [...new Set([...list, i].map(find))]);
    }
  });
  const byRoot = new Map<number, WorkRecord[]>();
  records.forEach((r, i) => {
    const root = find(i);
    const members = byRoot.get(root);
    if (members) members.push(r);
    else byRoot.set(root, [r]);
  });
  return [...byRoot.entries()].sort(([a], [b]) => a - b).map(([root, members]) => ({ members, ids: ids[root]! }));
}

/** The entry of one work: each field from the richest record that has it. */
function mergeGroup(members: WorkRecord[], ids: Ids): BibEntry {
  if (members.length === 1) return members[0]!.entry;
  const rich = [...members].sort((a, b) => richness(b.entry) - richness(a.entry));
  const entries = rich.map((m) => m.entry);
  const best = entries[0]!;
  const first = <K extends keyof BibEntry>(k: K): BibEntry[K] => (entries.find((e) => e[k]) ?? best)[k];
  // Authors as one list from one record (two lists are not mixed): with family and given
  // names apart when a record has them, else as recorded.
  const structured = entries.find((e) => e.names.length && e.names.every((n) => n.family || n.literal));
  const authors = structured ?? entries.find((e) => e.names.length) ?? best;
  const titled = rich.find((m) => m.declaresTitle)?.entry ?? best;
  // The DOI as the richest record wrote it; arXiv's own DOI only when no other DOI is known.
  const doi = entries.find((e) => e.doi && normalizeDoi(e.doi) === ids.doi)?.doi ?? first('doi');
  // One version named by every record is kept; versions that differ are the e-print itself.
  const versions = new Set(entries.map((e) => e.arxiv).filter(Boolean));
  const arxiv = versions.size <= 1 ? first('arxiv') : (parseArxivId([...versions][0]!)?.id ?? first('arxiv'));
  return {
    ...best,
    evidenceId: members[0]!.entry.evidenceId,
    evidenceIds: [...new Set(members.flatMap((m) => m.entry.evidenceIds))],
    title: titled.title,
    names: authors.names,
    authors: authors.authors,
    moreAuthors: authors.moreAuthors,
    year: entries.find((e) => e.year !== null)?.year ?? null,
    journal: first('journal'),
    journalAbbrev: first('journalAbbrev'),
    volume: first('volume'),
    issue: first('issue'),
    pages: first('pages'),
    publisher: first('publisher'),
    doi,
    url: first('url'),
    pmid: first('pmid'),
    arxiv,
    journalRef: first('journalRef'),
  };
}

export function mergeWorks(records: readonly WorkRecord[]): BibEntry[] {
  return groups(records).map((g) => mergeGroup(g.members, g.ids));
}
