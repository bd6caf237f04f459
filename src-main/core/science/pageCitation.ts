import type { HtmlDocument, HtmlElement, HtmlNode } from '../security/htmlParse';
import { authorsField, compactCitation, displayAuthor, fullPageRange, MAX_CITATION_AUTHORS, yearIn, type Citation, type CitationAuthor } from './citation';

/**
 * The citation a publisher's web page declares in its meta tags, for the bibliography
 * export: Highwire Press tags (`citation_title`, `citation_author`..., which Google Scholar
 * reads and most journal sites write) and Dublin Core (`dc.creator`, `DC.title`...), with
 * `og:title` only as the title of a citation the other tags start. It reads the document
 * web_fetch already parsed (htmlParse.ts: bounded, attributes in any order and quoting,
 * entities decoded as a browser would), so a hostile page costs one linear walk here.
 * A page without such tags gives no citation and exports as it always did.
 */

/** Characters kept of one value (a title or journal name is far shorter; a page may pad one). */
const MAX_VALUE = 1000;
/** Repeated tags read at most (authors beyond MAX_CITATION_AUTHORS are only counted). */
const MAX_REPEATS = 10_000;

const DOI = /^10\.\d{4,9}\/\S+$/;

/** A DOI as pages write it ("10.x/y", "doi:10.x/y", "info:doi/10.x/y", "https://doi.org/10.x/y"), else "". */
export function doiOf(text: string): string {
  const t = text.trim().replace(/^(?:doi:\s*|info:doi\/|https?:\/\/(?:dx\.)?doi\.org\/)/i, '');
  return DOI.test(t) ? t : '';
}

/** Words that make an author an organisation (BibTeX must keep it whole, not split "Network" off as a surname). */
const ORGANISATION = /\b(consortium|collaboration|network|group|committee|initiative|investigators|society|association|team)\b/i;

/** Characters kept of one author's name. */
const MAX_NAME = 300;

function pageAuthor(text: string): CitationAuthor | null {
  const name = text.slice(0, MAX_NAME).replace(/\s+/g, ' ').trim();
  if (!name) return null;
  return ORGANISATION.test(name) && !name.includes(',') ? { literal: name } : displayAuthor(name);
}

/** The tag's key: Dublin Core's spellings (DC., dc., dcterms.) are one; others lower-cased. */
function keyOf(raw: string): string {
  const k = raw.trim().toLowerCase();
  return k.startsWith('dcterms.') ? `dc.${k.slice(8)}` : k;
}

const isElement = (node: HtmlNode): node is HtmlElement => 'tagName' in node;

/**
 * Every meta tag's name (or property) and content, in document order, `MAX_REPEATS` of a
 * key at most. A template's content is not part of the document and is not read.
 */
function metaValues(doc: HtmlDocument): { values: Map<string, string[]>; counts: Map<string, number> } {
  const values = new Map<string, string[]>();
  const counts = new Map<string, number>();
  const stack: HtmlNode[] = [...doc.childNodes].reverse();
  while (stack.length) {
    const node = stack.pop()!;
    if (!isElement(node)) continue;
    if (node.tagName === 'meta') {
      let key = '';
      let content: string | null = null;
      for (const a of node.attrs) {
        if ((a.name === 'name' || a.name === 'property') && !key) key = keyOf(a.value);
        else if (a.name === 'content') content = a.value;
      }
      const value = content?.slice(0, MAX_VALUE).replace(/\s+/g, ' ').trim();
      // An empty tag is no value (and no author to count: "and others" would follow).
      if (key && value && (key.startsWith('citation_') || key.startsWith('dc.') || key === 'og:title')) {
        counts.set(key, (counts.get(key) ?? 0) + 1);
        const list = values.get(key) ?? [];
        if (list.length < MAX_REPEATS) list.push(value);
        values.set(key, list);
      }
      continue;
    }
    for (let i = node.childNodes.length - 1; i >= 0; i--) stack.push(node.childNodes[i]!);
  }
  return { values, counts };
}

/** The citation the page's meta tags give, or undefined when it has none. */
export function pageCitation(doc: HtmlDocument): Citation | undefined {
  const { values, counts } = metaValues(doc);
  const first = (...keys: string[]) => {
    for (const k of keys) {
      const v = values.get(k)?.[0];
      if (v) return v;
    }
    return '';
  };
  // Highwire authors when the page gives them (one tag each, in order; old pages list them in one
  // `citation_authors` tag), else Dublin Core's creators.
  const listed = values.get('citation_author') ?? [];
  const joined = listed.length ? [] : first('citation_authors').split(';').filter((s) => s.trim());
  const creators = listed.length || joined.length ? [] : (values.get('dc.creator') ?? []);
  const names = listed.length ? listed : joined.length ? joined : creators;
  const total = listed.length ? (counts.get('citation_author') ?? 0) : joined.length ? joined.length : (counts.get('dc.creator') ?? 0);
  const kept = authorsField(names.slice(0, MAX_CITATION_AUTHORS).map(pageAuthor));
  const authorCount = kept.authors && total > kept.authors.length ? { author_count: total } : {};

  const firstPage = first('citation_firstpage');
  const lastPage = first('citation_lastpage');
  const year = yearIn(first('citation_publication_date', 'citation_date', 'citation_cover_date', 'citation_online_date', 'citation_year', 'dc.date', 'dc.date.issued', 'dc.issued'));
  const doi = doiOf(first('citation_doi')) || (values.get('dc.identifier') ?? []).map(doiOf).find(Boolean) || '';
  const citation = compactCitation({
    title: first('citation_title', 'dc.title'),
    ...kept,
    ...authorCount,
    journal: first('citation_journal_title', 'citation_conference_title'),
    journal_abbrev: first('citation_journal_abbrev'),
    ...(year ? { year } : {}),
    volume: first('citation_volume'),
    issue: first('citation_issue'),
    pages: firstPage && lastPage && lastPage !== firstPage ? fullPageRange(`${firstPage}-${lastPage}`) : firstPage,
    publisher: first('citation_publisher', 'dc.publisher'),
    doi,
  });
  // og:title names the page of any site: it titles a citation the scholarly tags start, never makes one.
  const og = first('og:title');
  return citation && !citation.title && og ? { title: og, ...citation } : citation;
}
