/**
 * The bibliographic fields of a literature record, as its source gives them, kept in the
 * evidence envelope (`envelope.citation`) so a bibliography export (export/bibliography.ts)
 * can write full entries. They never reach the model: the model reads a record's short
 * `attributes`, and the citation is moved out of the record before the search result is
 * returned (science/client.ts). Every field is optional; evidence recorded before this
 * existed has none, and exports as it did.
 */

/**
 * One author: a person (`family`, with `given` and `suffix` when known), an organisation
 * kept whole (`literal`: BibTeX must not split it), or a name as recorded in one string
 * (`name`: the reference manager splits it itself).
 */
export interface CitationAuthor {
  family?: string;
  given?: string;
  suffix?: string;
  literal?: string;
  name?: string;
}

export interface Citation {
  title?: string;
  authors?: CitationAuthor[];
  /** How many authors the source lists, when more than `authors` keeps. */
  author_count?: number;
  /** The journal, proceedings or venue (full name when the source gives one). */
  journal?: string;
  journal_abbrev?: string;
  year?: number;
  volume?: string;
  issue?: string;
  /** "100814", "244-255" (an abbreviated MEDLINE range is written out). */
  pages?: string;
  publisher?: string;
  doi?: string;
  /** A free-text reference to the published version (arXiv's journal_ref). */
  journal_ref?: string;
  /**
   * The work's PubMed and PubMed Central ids when the source gives them: the bibliography
   * merges the records of one work reached by different routes by them (science/workIdentity.ts).
   */
  pmid?: string;
  pmcid?: string;
}

/** How many authors a record keeps (a physics paper can list thousands). */
export const MAX_CITATION_AUTHORS = 100;

const SUFFIX = /^(jr|sr|[2-4](nd|rd|th)|ii|iii|iv)\.?$/i;
const PARTICLE = /^(van|von|der|den|de|del|della|di|da|dos|du|la|le|ter|ten|bin|ibn|al)$/;
const INITIALS = /^\p{Lu}{1,4}$/u;

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** "GW" -> "G. W." (MEDLINE initials as a given name a style can abbreviate or not). */
const spellInitials = (initials: string) => [...initials].map((c) => `${c}.`).join(' ');

/** A person from family/given parts (Crossref, PubMed efetch), or an organisation. */
export function personAuthor(family: string, given: string, literal = '', suffix = ''): CitationAuthor | null {
  const f = clean(family);
  const g = clean(given);
  const x = clean(suffix);
  if (f) return { family: f, ...(g ? { given: g } : {}), ...(x ? { suffix: x } : {}) };
  const l = clean(literal || given);
  return l ? { literal: l } : null;
}

/**
 * A MEDLINE-style name, "LoPresti PJ", "Hambrick GW Jr", "De Luca F" (PubMed esummary,
 * Europe PMC authorString): family name, then initials, then a suffix. A name without
 * initials (a consortium) is kept whole.
 */
export function medlineAuthor(text: string): CitationAuthor | null {
  const parts = clean(text).replace(/\.$/, '').split(' ').filter(Boolean);
  if (!parts.length) return null;
  const suffix = parts.length > 2 && SUFFIX.test(parts.at(-1)!) ? parts.pop()! : '';
  if (parts.length < 2 || !INITIALS.test(parts.at(-1)!)) return { literal: clean(text).replace(/\.$/, '') };
  const given = spellInitials(parts.pop()!);
  return { family: parts.join(' '), given, ...(suffix ? { suffix } : {}) };
}

/**
 * A display name, "Andrew V. Anzalone", "Ludwig van Beethoven", "Martin Luther King Jr."
 * (arXiv, OpenAlex, the Science Navigator): the last word is the family name, with the
 * lower-case particles before it; a name already written "Family, Given" is split at the
 * comma; a one-word name stays as recorded.
 */
export function displayAuthor(text: string): CitationAuthor | null {
  let whole = clean(text);
  if (!whole) return null;
  // "King, Jr." or "King Jr.": a suffix, not a given name.
  const trailing = /,?\s+(jr|sr|ii|iii|iv|[2-4](?:nd|rd|th))\.?$/i.exec(whole);
  const suffix = trailing && whole.length > trailing[0].length ? whole.slice(trailing.index).replace(/^,?\s+/, '') : '';
  if (suffix) whole = whole.slice(0, trailing!.index);
  const withSuffix = (a: CitationAuthor): CitationAuthor => (suffix && a.family ? { ...a, suffix } : a);
  const comma = /^([^,]+),\s*([^,]+)$/.exec(whole);
  if (comma) return withSuffix({ family: comma[1]!.trim(), given: comma[2]!.trim() });
  const parts = whole.split(' ');
  if (parts.length < 2) return suffix ? { name: clean(text) } : { name: whole };
  let start = parts.length - 1;
  while (start > 1 && PARTICLE.test(parts[start - 1]!)) start--;
  return withSuffix({ family: parts.slice(start).join(' '), given: parts.slice(0, start).join(' ') });
}

/** The first year (1600-2099) in a date text ("1965 Aug", "1998 Dec-1999 Jan", "2016-05-26T17:59:46Z"). */
export function yearIn(text: string): number | undefined {
  const m = /\b(1[6-9]\d\d|20\d\d)\b/.exec(text);
  return m ? Number(m[1]) : undefined;
}

/** "188-91" -> "188-191" (MEDLINE drops the leading digits an end page shares with the start). */
export function fullPageRange(pages: string): string {
  const m = /^(\d+)\s*[-–]\s*(\d+)$/.exec(pages.trim());
  if (!m) return clean(pages);
  const [start, end] = [m[1]!, m[2]!];
  return end.length < start.length ? `${start}-${start.slice(0, start.length - end.length)}${end}` : `${start}-${end}`;
}

/** The authors a record keeps, and how many there were when some were left out. */
export function authorsField(all: (CitationAuthor | null)[]): Pick<Citation, 'authors' | 'author_count'> {
  const authors = all.filter((a): a is CitationAuthor => a !== null);
  if (!authors.length) return {};
  return authors.length > MAX_CITATION_AUTHORS ? { authors: authors.slice(0, MAX_CITATION_AUTHORS), author_count: authors.length } : { authors };
}

/** The citation without empty fields (evidence stays small), or undefined when nothing is left. */
export function compactCitation(c: Citation): Citation | undefined {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(c)) {
    if (v === undefined || v === null || (typeof v === 'string' && !v.trim()) || (Array.isArray(v) && !v.length)) continue;
    out[k] = typeof v === 'string' ? clean(v) : v;
  }
  return Object.keys(out).length ? (out as Citation) : undefined;
}
