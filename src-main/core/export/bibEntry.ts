import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import type { CitationAuthor } from '../science/citation';
import { arxivOfDoi, bareDoi } from '../science/workIdentity';

/**
 * What a bibliography entry is made of, read from one evidence record: the record's own
 * fields (title, URL, DOI, and for the Science Navigator's references authors, journal,
 * year) and, for records that carry it, the `citation` the source gave (every author with
 * family and given names apart, journal, volume, issue, pages, publisher). Evidence from
 * before the citation was kept has none, and gives the entry it always gave.
 */

export interface BibEntry {
  /** The first record of the work (the entry's place in the list). */
  evidenceId: string;
  /** Every record of the work, in the order they were recorded: a claim citing any of them cites this entry. */
  evidenceIds: string[];
  /** article (a paper), preprint, web (a page or search result), document (a PDF). */
  type: 'article' | 'preprint' | 'web' | 'document';
  title: string;
  /** As RIS writes them: "Family, Given" (", Suffix"), an organisation, or a name as recorded. */
  authors: string[];
  /** The same authors with their parts (BibTeX writes "Family, Suffix, Given" and braces organisations). */
  names: CitationAuthor[];
  /** The source lists more authors than the record keeps. */
  moreAuthors: boolean;
  journal: string;
  journalAbbrev: string;
  year: number | null;
  volume: string;
  issue: string;
  /** "244-255" or "100814". */
  pages: string;
  publisher: string;
  doi: string;
  url: string;
  pmid: string;
  arxiv: string;
  /** Where a preprint was published, as arXiv words it ("Phys. Rev. D 94, 1 (2016)"). */
  journalRef: string;
  /** When the record was retrieved (web entries cite it). */
  accessed: string;
}

const LITERATURE_DBS = new Set(['pubmed', 'europepmc', 'arxiv', 'openalex', 'crossref']);

const str = (v: unknown): string => (typeof v === 'string' ? v.replace(/\s+/g, ' ').trim() : typeof v === 'number' && Number.isFinite(v) ? String(v) : '');
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
const asDoi = (v: string) => bareDoi(v) || v;
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** "Europe PMC MED:20516115: Title" -> "Title" (science records are titled with their database and id). */
function bareTitle(record: EvidenceRecord): string {
  const t = str(record.envelope.title) || record.title;
  if (!LITERATURE_DBS.has(str(record.envelope.database))) return t;
  const id = str(record.envelope.record_id);
  // By the record's own id when it has one: an id may hold a colon (Europe PMC's MED:123).
  const m = id ? new RegExp(`^[^:]{1,40} ${escapeRe(id)}: (.+)$`, 's').exec(t) : /^[^:]{1,40} [^\s:]{1,60}: (.+)$/.exec(t);
  return m ? m[1]! : t;
}

/** One stored author (untrusted JSON read defensively). */
function authorOf(v: unknown): CitationAuthor | null {
  if (typeof v === 'string') return str(v) ? { name: str(v) } : null;
  const a = obj(v);
  const [family, given, suffix, literal, name] = [str(a.family), str(a.given), str(a.suffix), str(a.literal), str(a.name)];
  if (family) return { family, ...(given ? { given } : {}), ...(suffix ? { suffix } : {}) };
  if (literal) return { literal };
  return name || given ? { name: name || given } : null;
}

export function risName(a: CitationAuthor): string {
  return a.family ? [a.family, a.given, a.suffix].filter(Boolean).join(', ') : (a.literal ?? a.name ?? '');
}

/**
 * Whether the record names the work's own title (its source's citation, a Navigator
 * reference), rather than a title made up for the record (a database id before the title,
 * an open-access download's "arXiv <id> (open-access PDF)", a page's <title>).
 */
export function declaresTitle(record: EvidenceRecord): boolean {
  return Boolean(str(obj(record.envelope.citation).title)) || str(record.envelope.database) === 'bohrium_navigator';
}

/** The entry of one record, or null when it is not literature (cells, artifacts, database records of proteins...). */
export function bibEntryOf(record: EvidenceRecord, options: { includeSearchResults?: boolean } = {}): BibEntry | null {
  const env = record.envelope;
  const cit = obj(env.citation);
  const database = str(env.database);
  const role = str(env.role);
  const stored = Array.isArray(cit.authors) ? cit.authors : Array.isArray(env.authors) ? env.authors : [];
  const names = stored.map(authorOf).filter((a): a is CitationAuthor => a !== null);
  const year = typeof cit.year === 'number' ? cit.year : typeof env.year === 'number' ? env.year : null;
  const base = {
    evidenceId: record.id,
    evidenceIds: [record.id],
    title: str(cit.title) || bareTitle(record),
    authors: names.map(risName),
    names,
    moreAuthors: typeof cit.author_count === 'number' && cit.author_count > names.length,
    journal: str(cit.journal) || str(env.journal),
    journalAbbrev: str(cit.journal_abbrev),
    year: year !== null && Number.isInteger(year) ? year : null,
    volume: str(cit.volume),
    issue: str(cit.issue),
    pages: str(cit.pages),
    publisher: str(cit.publisher),
    // The bare DOI: a doi field holding a doi.org link is printed with the link twice.
    doi: asDoi(str(cit.doi) || str(env.doi)),
    url: str(env.url) || str(env.final_url) || str(env.request_url),
    pmid: str(cit.pmid),
    arxiv: '',
    journalRef: str(cit.journal_ref),
    accessed: str(env.retrieved_at) || record.createdAt,
  };
  if (database === 'bohrium_navigator') {
    if (role === 'answer' || (role === 'search_result' && !options.includeSearchResults)) return null;
    return { ...base, type: str(env.type) === 'web' ? 'web' : 'article' };
  }
  if (database === 'pdf') {
    // An open-access download names the e-print it is; a PDF read keeps the document's own title.
    const arxiv = str(env.source) === 'arxiv' ? str(env.record_id) : '';
    return { ...base, type: 'document', url: str(env.url), title: str(cit.title) || record.title, arxiv };
  }
  if (database === 'web_search') return options.includeSearchResults ? { ...base, type: 'web', url: str(env.url) } : null;
  // A page that declares the journal it was published in (a publisher's article page, its
  // citation meta tags) is that article; any other page is cited as a web page.
  if (record.kind === 'page') return { ...base, type: str(cit.journal) ? 'article' : 'web' };
  if (LITERATURE_DBS.has(database)) {
    const id = str(env.record_id);
    // arXiv's own DOI (OpenAlex gives it for an e-print it lists) names a preprint too.
    const preprint = database === 'arxiv' || str(env.type) === 'posted-content' || /^PPR:/.test(id) || arxivOfDoi(base.doi) !== null;
    return {
      ...base,
      type: preprint ? 'preprint' : 'article',
      doi: base.doi || (database === 'crossref' ? id : /^10\.\d{4,9}\//.test(id) ? id : ''),
      pmid: database === 'pubmed' ? id : database === 'europepmc' && /^MED:\d+$/.test(id) ? id.slice(4) : base.pmid,
      arxiv: database === 'arxiv' ? id : '',
    };
  }
  return null;
}
