import { authorsField, compactCitation, fullPageRange, personAuthor } from '../citation';
import { asArr, asNum, asObj, asStr, compact, nextOffsetCursor, offsetFrom, requireId, type Connector, type ConnectorRecord } from '../connector';
import { ConnectorError } from '../errors';

const DOI = /^10\.\d{4,9}\/\S+$/;

/** "https://doi.org/10.1/x", "doi:10.1/x" or "10.1/x" -> "10.1/x". */
export function bareDoi(query: string): string {
  return query.trim().replace(/^(https?:\/\/(dx\.)?doi\.org\/|doi:\s*)/i, '');
}

const yearOf = (v: unknown): number | null => asNum(asArr(asArr(asObj(v)['date-parts'])[0])[0]);

/** One Crossref work (the `message` of /works/{doi}, or an item of a search) to the common envelope. */
export function normalizeCrossrefWork(raw: unknown, index = 0): ConnectorRecord {
  const w = asObj(raw);
  const doi = requireId('crossref', 'DOI', index, w.DOI);
  const authors = asArr(w.author)
    .map(asObj)
    .map((a) => [asStr(a.given), asStr(a.family)].filter(Boolean).join(' ') || asStr(a.name))
    .filter(Boolean);
  const year = yearOf(w.issued) ?? yearOf(w.published) ?? yearOf(w.created);
  const title = asStr(asArr(w.title)[0]);
  const abstract = asStr(w.abstract).replace(/<[^>]+>/g, ' ').replace(/\s+/g, ' ').trim();
  return {
    id: doi,
    title: title || doi,
    url: asStr(w.URL) || `https://doi.org/${doi}`,
    type: asStr(w.type) || 'work',
    attributes: compact({
      doi,
      authors: authors.slice(0, 25),
      author_count: authors.length,
      journal: asStr(asArr(w['container-title'])[0]),
      year,
      publisher: asStr(w.publisher),
      volume: asStr(w.volume),
      issue: asStr(w.issue),
      page: asStr(w.page),
      cited_by: asNum(w['is-referenced-by-count']),
      reference_count: asNum(w['reference-count']),
      license: asStr(asObj(asArr(w.license).map(asObj).find((l) => l['content-version'] === 'vor')).URL),
      abstract: abstract.length > 800 ? `${abstract.slice(0, 799)}…` : abstract,
    }),
    citation: compactCitation({
      title,
      // Family and given apart (the attributes join them for the model); an organisation by its name.
      ...authorsField(asArr(w.author).map(asObj).map((a) => personAuthor(asStr(a.family), asStr(a.given), asStr(a.name), asStr(a.suffix)))),
      journal: asStr(asArr(w['container-title'])[0]),
      journal_abbrev: asStr(asArr(w['short-container-title'])[0]),
      year: year ?? undefined,
      volume: asStr(w.volume),
      issue: asStr(w.issue),
      pages: fullPageRange(asStr(w.page) || asStr(w['article-number'])),
      publisher: asStr(w.publisher),
      doi,
    }),
  };
}

export const crossref: Connector = {
  database: 'crossref',
  label: 'Crossref',
  description: 'Crossref DOI metadata: a work by DOI (authors, journal, year, volume, pages, citations, license) or a bibliographic search.',
  normalizerVersion: 'crossref/2',
  operations: [
    { name: 'work', description: 'The metadata of one DOI.', query: 'a DOI, e.g. 10.1016/j.xgen.2025.100814', maxLimit: 1, defaultLimit: 1, cursor: false, filters: {} },
    {
      name: 'search',
      description: 'Works matching a bibliographic query (title, authors, journal words).',
      query: 'words, e.g. "pooled prime editing variants"',
      maxLimit: 50,
      defaultLimit: 10,
      cursor: true,
      filters: { from_year: { description: 'published in or after this year', pattern: /^(1[6-9]|20)\d\d$/, example: '2020' } },
    },
  ],
  async run(params, ctx) {
    if (params.operation === 'work') {
      const doi = bareDoi(params.query);
      if (!DOI.test(doi)) throw new ConnectorError('crossref', 'invalid_request', `"${params.query}" is not a DOI (like 10.1016/j.xgen.2025.100814); use operation "search" to find one.`);
      // The DOI's "/" stays a path separator: Crossref accepts /works/10.1016/j.xgen.2025.100814.
      const res = await ctx.get('rest', `/works/${doi.split('/').map(encodeURIComponent).join('/')}`, undefined, { accept: 'application/json' });
      const body = asObj(res.json());
      if (body.status !== 'ok') throw new Error(`status "${asStr(body.status)}"`);
      return { records: [normalizeCrossrefWork(body.message)], total: 1, nextCursor: null };
    }
    const offset = offsetFrom(params.cursor);
    const filter = params.filters.from_year ? `from-pub-date:${params.filters.from_year}` : undefined;
    const res = await ctx.get('rest', '/works', { 'query.bibliographic': params.query, rows: params.limit, offset: offset || undefined, filter }, { accept: 'application/json' });
    const message = asObj(asObj(res.json()).message);
    if (!Array.isArray(message.items)) throw new Error('no "message.items" array');
    const total = asNum(message['total-results']);
    return { records: message.items.map(normalizeCrossrefWork), total, nextCursor: nextOffsetCursor(offset, message.items.length, params.limit, total) };
  },
};
