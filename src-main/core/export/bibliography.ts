import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import { surname } from '../../../src-preload/contract/evidenceLabel';
import type { CitationAuthor } from '../science/citation';
import { bibEntryOf, declaresTitle, type BibEntry } from './bibEntry';
import { mergeWorks, type WorkRecord } from './bibMerge';
import { workKeysOf } from './workKeys';

/**
 * A session's literature evidence as a bibliography, in BibTeX and RIS: the Science
 * Navigator's references (and, on request, its other search results), records of the
 * literature databases (PubMed, Europe PMC, arXiv, OpenAlex, Crossref), web search
 * results and pages, and the PDFs read. Each entry keeps its DOI when there is one and
 * names every evidence id of its work, so a reference manager entry leads back to the records.
 */

export type BibliographyFormat = 'bibtex' | 'ris';

export { bibEntryOf, type BibEntry } from './bibEntry';

export function bibliographyEntries(records: readonly EvidenceRecord[], options: { includeSearchResults?: boolean } = {}): BibEntry[] {
  const works: WorkRecord[] = [];
  for (const record of records) {
    const entry = bibEntryOf(record, options);
    if (entry) works.push({ entry, keys: workKeysOf(record, entry), declaresTitle: declaresTitle(record) });
  }
  // One entry per work, whichever routes reached it (bibMerge.ts).
  return mergeWorks(works);
}

/** BibTeX's special characters escaped; Unicode kept (biber and modern BibTeX read UTF-8). */
function tex(value: string): string {
  return value.replace(/\\/g, '\\textbackslash{}').replace(/([{}&%$#_])/g, '\\$1').replace(/~/g, '\\textasciitilde{}').replace(/\^/g, '\\textasciicircum{}').replace(/\s+/g, ' ');
}

/**
 * A DOI or URL for BibTeX: these fields are read verbatim (biblatex, \url, \doi), so a
 * backslash escape would be printed as is; only what would unbalance the field is encoded.
 */
const verbatim = (value: string) => value.replace(/\s+/g, '%20').replace(/\{/g, '%7B').replace(/\}/g, '%7D').replace(/\\/g, '%5C');

/**
 * One name as BibTeX parses it: "Family, Given" or "Family, Suffix, Given"; an organisation
 * in braces (else "Cancer Genome Atlas Network" would be read as a person named Network);
 * a name recorded in one string as it is. A word "and" inside a name would split it, so
 * it is braced.
 */
function bibName(a: CitationAuthor): string {
  const t = (s: string) => tex(s).replace(/\band\b/gi, (w) => `{${w}}`);
  if (a.family) return [t(a.family), ...(a.suffix ? [t(a.suffix)] : []), ...(a.given ? [t(a.given)] : [])].join(', ');
  if (a.literal) return `{${tex(a.literal)}}`;
  return t(a.name ?? '');
}

function citeKey(entry: BibEntry, used: Set<string>): string {
  const first = entry.names[0];
  const who = first ? (first.family ?? (first.literal ? first.literal.split(/\s+/)[0]! : surname(first.name ?? ''))) : (entry.title.split(/\s+/)[0] ?? 'ref');
  const word = entry.title.split(/\s+/).find((w) => w.length > 3) ?? '';
  const stem = `${who}${entry.year ?? ''}${word}`.normalize('NFKD').replace(/[^A-Za-z0-9]/g, '') || 'ref';
  let key = stem;
  for (let i = 0; used.has(key); i++) key = `${stem}${String.fromCharCode(97 + (i % 26))}${i >= 26 ? Math.floor(i / 26) : ''}`;
  used.add(key);
  return key;
}

/** "244-255" -> ["244", "255"]; "100814" -> ["100814", ""]. */
function pageRange(pages: string): [string, string] {
  const m = /^\s*([^\s\-–—]+)\s*(?:-{1,2}|–|—)\s*([^\s\-–—]+)\s*$/.exec(pages);
  return m ? [m[1]!, m[2]!] : [pages.trim(), ''];
}

/**
 * Every evidence id of the work, after where a preprint was published (one note in both
 * formats): a claim citing any route to the work finds its entry by the id it cites.
 */
const noteOf = (e: BibEntry) => `${e.journalRef ? `Published in ${e.journalRef}. ` : ''}OpenAI4S evidence ${e.evidenceIds.join(', ')}`;

export function toBibtex(entries: readonly BibEntry[]): string {
  const used = new Set<string>();
  return entries
    .map((e) => {
      const type = e.type === 'article' ? 'article' : e.type === 'preprint' ? 'misc' : e.type === 'web' ? 'online' : 'misc';
      const [first, last] = pageRange(e.pages);
      const fields: [string, string][] = [
        ['title', `{${tex(e.title)}}`],
        ['author', [...e.names.map(bibName), ...(e.moreAuthors ? ['others'] : [])].join(' and ')],
        ['journal', tex(e.journal)],
        ['shortjournal', e.journalAbbrev && e.journalAbbrev !== e.journal ? tex(e.journalAbbrev) : ''],
        ['year', e.year ? String(e.year) : ''],
        ['volume', tex(e.volume)],
        ['number', tex(e.issue)],
        ['pages', tex(last ? `${first}--${last}` : first)],
        ['publisher', tex(e.publisher)],
        ['doi', verbatim(e.doi)],
        ['url', verbatim(e.url)],
        ['eprint', verbatim(e.arxiv)],
        ['archiveprefix', e.arxiv ? 'arXiv' : ''],
        ['pmid', e.pmid],
        ['urldate', e.type === 'web' ? e.accessed.slice(0, 10) : ''],
        ['note', tex(noteOf(e))],
      ];
      const body = fields.filter(([, v]) => v).map(([k, v]) => `  ${k} = {${v}}`);
      return `@${type}{${citeKey(e, used)},\n${body.join(',\n')}\n}`;
    })
    .join('\n\n')
    .concat(entries.length ? '\n' : '');
}

export function toRis(entries: readonly BibEntry[]): string {
  // One tag a line: a value's line breaks (a title with a newline) would start a bogus tag.
  const line = (tag: string, value: string) => {
    const v = value.replace(/\s+/g, ' ').trim();
    return v ? [`${tag}  - ${v}`] : [];
  };
  return entries
    .map((e) => {
      const [first, last] = pageRange(e.pages);
      return [
        ...line('TY', e.type === 'article' ? 'JOUR' : e.type === 'preprint' ? 'UNPB' : e.type === 'web' ? 'ELEC' : 'GEN'),
        ...line('TI', e.title),
        ...e.authors.flatMap((a) => line('AU', a)),
        ...line('JO', e.journal),
        ...line('J2', e.journalAbbrev !== e.journal ? e.journalAbbrev : ''),
        ...line('PY', e.year ? String(e.year) : ''),
        ...line('VL', e.volume),
        ...line('IS', e.issue),
        ...line('SP', first),
        ...line('EP', last),
        ...line('PB', e.publisher),
        ...line('DO', e.doi),
        ...line('UR', e.url),
        ...line('AN', e.pmid ? `PMID:${e.pmid}` : e.arxiv ? `arXiv:${e.arxiv}` : ''),
        ...line('Y2', e.type === 'web' ? e.accessed.slice(0, 10) : ''),
        ...line('N1', noteOf(e)),
        'ER  - ',
      ].join('\r\n');
    })
    .join('\r\n\r\n')
    .concat(entries.length ? '\r\n' : '');
}

export function formatBibliography(entries: readonly BibEntry[], format: BibliographyFormat): string {
  return format === 'bibtex' ? toBibtex(entries) : toRis(entries);
}
