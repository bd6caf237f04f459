import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import { surname } from '../../../src-preload/contract/evidenceLabel';

/**
 * A session's literature evidence as a bibliography, in BibTeX and RIS: the Science
 * Navigator's references (and, on request, its other search results), records of the
 * literature databases (PubMed, Europe PMC, arXiv, OpenAlex, Crossref), web search
 * results and pages, and the PDFs read. Each entry keeps its DOI when there is one and
 * names the evidence id it came from, so a reference manager entry leads back to the record.
 */

export type BibliographyFormat = 'bibtex' | 'ris';

export interface BibEntry {
  evidenceId: string;
  /** article (a paper), preprint, web (a page or search result), document (a PDF). */
  type: 'article' | 'preprint' | 'web' | 'document';
  title: string;
  authors: string[];
  journal: string;
  year: number | null;
  doi: string;
  url: string;
  pmid: string;
  arxiv: string;
  /** When the record was retrieved (web entries cite it). */
  accessed: string;
}

const LITERATURE_DBS = new Set(['pubmed', 'europepmc', 'arxiv', 'openalex', 'crossref']);

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

/** "PubMed 123: Title" -> "Title" (science records are titled with their database and id). */
function bareTitle(record: EvidenceRecord): string {
  const t = str(record.envelope.title) || record.title;
  const m = /^[^:]{1,40} [^\s:]{1,60}: (.+)$/.exec(t);
  return m && str(record.envelope.database) && LITERATURE_DBS.has(str(record.envelope.database)) ? m[1]! : t;
}

/** The entry of one record, or null when it is not literature (cells, artifacts, database records of proteins...). */
export function bibEntryOf(record: EvidenceRecord, options: { includeSearchResults?: boolean } = {}): BibEntry | null {
  const env = record.envelope;
  const database = str(env.database);
  const role = str(env.role);
  const base = {
    evidenceId: record.id,
    title: bareTitle(record),
    authors: Array.isArray(env.authors) ? env.authors.map(str).filter(Boolean) : [],
    journal: str(env.journal),
    year: typeof env.year === 'number' ? env.year : null,
    doi: str(env.doi),
    url: str(env.url) || str(env.final_url) || str(env.request_url),
    pmid: '',
    arxiv: '',
    accessed: str(env.retrieved_at) || record.createdAt,
  };
  if (database === 'bohrium_navigator') {
    if (role === 'answer' || (role === 'search_result' && !options.includeSearchResults)) return null;
    return { ...base, type: str(env.type) === 'web' ? 'web' : 'article' };
  }
  if (database === 'pdf') return { ...base, type: 'document', url: str(env.url), title: record.title };
  if (database === 'web_search') return options.includeSearchResults ? { ...base, type: 'web', url: str(env.url) } : null;
  if (record.kind === 'page') return { ...base, type: 'web' };
  if (LITERATURE_DBS.has(database)) {
    const id = str(env.record_id);
    return {
      ...base,
      type: database === 'arxiv' ? 'preprint' : 'article',
      doi: base.doi || (database === 'crossref' ? id : /^10\.\d{4,9}\//.test(id) ? id : ''),
      pmid: database === 'pubmed' ? id : '',
      arxiv: database === 'arxiv' ? id : '',
    };
  }
  return null;
}

export function bibliographyEntries(records: readonly EvidenceRecord[], options: { includeSearchResults?: boolean } = {}): BibEntry[] {
  const entries: BibEntry[] = [];
  const seen = new Set<string>();
  for (const record of records) {
    const entry = bibEntryOf(record, options);
    if (!entry) continue;
    // One entry per work: the same DOI (or URL) recorded twice is listed once.
    const key = entry.doi ? `doi:${entry.doi.toLowerCase()}` : entry.url ? `url:${entry.url}` : `ev:${entry.evidenceId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    entries.push(entry);
  }
  return entries;
}

/** BibTeX's special characters escaped; Unicode kept (biber and modern BibTeX read UTF-8). */
function tex(value: string): string {
  return value.replace(/\\/g, '\\textbackslash{}').replace(/([{}&%$#_])/g, '\\$1').replace(/~/g, '\\textasciitilde{}').replace(/\^/g, '\\textasciicircum{}').replace(/\s+/g, ' ');
}

function citeKey(entry: BibEntry, used: Set<string>): string {
  const who = entry.authors[0] ? surname(entry.authors[0]) : entry.title.split(/\s+/)[0] ?? 'ref';
  const word = entry.title.split(/\s+/).find((w) => w.length > 3) ?? '';
  const stem = `${who}${entry.year ?? ''}${word}`.normalize('NFKD').replace(/[^A-Za-z0-9]/g, '') || 'ref';
  let key = stem;
  for (let i = 0; used.has(key); i++) key = `${stem}${String.fromCharCode(97 + (i % 26))}${i >= 26 ? Math.floor(i / 26) : ''}`;
  used.add(key);
  return key;
}

export function toBibtex(entries: readonly BibEntry[]): string {
  const used = new Set<string>();
  return entries
    .map((e) => {
      const type = e.type === 'article' ? 'article' : e.type === 'preprint' ? 'misc' : e.type === 'web' ? 'online' : 'misc';
      const fields: [string, string][] = [
        ['title', `{${tex(e.title)}}`],
        ['author', e.authors.map(tex).join(' and ')],
        ['journal', tex(e.journal)],
        ['year', e.year ? String(e.year) : ''],
        ['doi', tex(e.doi)],
        ['url', e.url],
        ['eprint', e.arxiv],
        ['archiveprefix', e.arxiv ? 'arXiv' : ''],
        ['pmid', e.pmid],
        ['urldate', e.type === 'web' ? e.accessed.slice(0, 10) : ''],
        ['note', `OpenAI4S evidence ${e.evidenceId}`],
      ];
      const body = fields.filter(([, v]) => v).map(([k, v]) => `  ${k} = {${v}}`);
      return `@${type}{${citeKey(e, used)},\n${body.join(',\n')}\n}`;
    })
    .join('\n\n')
    .concat(entries.length ? '\n' : '');
}

export function toRis(entries: readonly BibEntry[]): string {
  const line = (tag: string, value: string) => (value ? [`${tag}  - ${value.replace(/\s+/g, ' ')}`] : []);
  return entries
    .map((e) =>
      [
        ...line('TY', e.type === 'article' ? 'JOUR' : e.type === 'preprint' ? 'UNPB' : e.type === 'web' ? 'ELEC' : 'GEN'),
        ...line('TI', e.title),
        ...e.authors.flatMap((a) => line('AU', a)),
        ...line('JO', e.journal),
        ...line('PY', e.year ? String(e.year) : ''),
        ...line('DO', e.doi),
        ...line('UR', e.url),
        ...line('AN', e.pmid ? `PMID:${e.pmid}` : e.arxiv ? `arXiv:${e.arxiv}` : ''),
        ...line('Y2', e.type === 'web' ? e.accessed.slice(0, 10) : ''),
        ...line('N1', `OpenAI4S evidence ${e.evidenceId}`),
        'ER  - ',
      ].join('\r\n'),
    )
    .join('\r\n\r\n')
    .concat(entries.length ? '\r\n' : '');
}

export function formatBibliography(entries: readonly BibEntry[], format: BibliographyFormat): string {
  return format === 'bibtex' ? toBibtex(entries) : toRis(entries);
}
