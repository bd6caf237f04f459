import { authorsField, compactCitation, displayAuthor, yearIn } from '../citation';
import { requireId, asNum, compact, nextOffsetCursor, offsetFrom, type Connector, type ConnectorRecord } from '../connector';
import { ConnectorError } from '../errors';
import { child, children, textOf, type XmlElement } from '../xml';

const ARXIV_ID = /^(\d{4}\.\d{4,5}|[a-z-]+(\.[A-Z]{2})?\/\d{7})(v\d+)?$/;

/** An arXiv API Atom feed to records; arXiv reports a bad query as one entry titled "Error". */
export function normalizeArxivFeed(feed: XmlElement): { records: ConnectorRecord[]; total: number | null } {
  if (feed.name !== 'feed') throw new Error(`the root element is <${feed.name}>, not an Atom <feed>`);
  const entries = children(feed, 'entry');
  if (entries.length === 1 && textOf(child(entries[0], 'title')) === 'Error') {
    throw new ConnectorError('arxiv', 'invalid_request', `arXiv refused the query: ${textOf(child(entries[0], 'summary'))}`);
  }
  const records = entries.map((e, index) => {
    const absUrl = requireId('arxiv', 'id', index, child(e, 'id') ? textOf(child(e, 'id')) : undefined);
    const id = requireId('arxiv', 'id', index, absUrl.replace(/^https?:\/\/arxiv\.org\/abs\//, ''));
    const links = children(e, 'link');
    const pdf = links.find((l) => l.attrs.title === 'pdf')?.attrs.href;
    const summary = textOf(child(e, 'summary'));
    const names = children(e, 'author').map((a) => textOf(child(a, 'name')));
    const record: ConnectorRecord = {
      id,
      title: textOf(child(e, 'title')),
      url: links.find((l) => l.attrs.rel === 'alternate')?.attrs.href ?? absUrl,
      type: 'preprint',
      attributes: compact({
        authors: names.slice(0, 20),
        published: textOf(child(e, 'published')),
        updated: textOf(child(e, 'updated')),
        primary_category: child(e, 'arxiv:primary_category')?.attrs.term,
        categories: children(e, 'category').map((c) => c.attrs.term ?? ''),
        doi: textOf(child(e, 'arxiv:doi')),
        journal_ref: textOf(child(e, 'arxiv:journal_ref')),
        comment: textOf(child(e, 'arxiv:comment')),
        pdf_url: pdf,
        abstract: summary.length > 1200 ? `${summary.slice(0, 1199)}…` : summary,
      }),
      // Every author (the attributes keep 20), the year of the first version, the published version's reference.
      citation: compactCitation({
        title: textOf(child(e, 'title')),
        ...authorsField(names.map(displayAuthor)),
        year: yearIn(textOf(child(e, 'published'))),
        doi: textOf(child(e, 'arxiv:doi')),
        journal_ref: textOf(child(e, 'arxiv:journal_ref')),
      }),
    };
    return record;
  });
  return { records, total: asNum(textOf(child(feed, 'opensearch:totalResults'))) };
}

export const arxiv: Connector = {
  database: 'arxiv',
  label: 'arXiv',
  description: 'arXiv preprints through the Atom API: search (arXiv query syntax, e.g. "ti:transformer AND cat:cs.LG") or ids.',
  normalizerVersion: 'arxiv/2',
  operations: [
    {
      name: 'search',
      description: 'Search preprints; records carry authors, dates, categories, abstract, PDF link.',
      query: 'arXiv search_query, e.g. "all:protein folding"',
      maxLimit: 100,
      defaultLimit: 10,
      cursor: true,
      filters: {
        sort_by: { description: 'relevance, lastUpdatedDate or submittedDate', pattern: /^(relevance|lastUpdatedDate|submittedDate)$/, example: 'submittedDate' },
        sort_order: { description: 'ascending or descending', pattern: /^(ascending|descending)$/, example: 'descending' },
      },
    },
    { name: 'id', description: 'Preprints by id (comma-separated, up to 20).', query: 'arXiv ids, e.g. 1605.08386', maxLimit: 20, defaultLimit: 20, cursor: false, filters: {} },
  ],
  async run(params, ctx) {
    if (params.operation === 'id') {
      const ids = params.query.split(',').map((s) => s.trim()).filter(Boolean);
      const bad = ids.find((i) => !ARXIV_ID.test(i));
      if (bad || ids.length > 20) throw new ConnectorError('arxiv', 'invalid_request', bad ? `"${bad}" is not an arXiv id (like 1605.08386).` : 'at most 20 ids per call.');
      const res = await ctx.get('rest', '/api/query', { id_list: ids.join(','), max_results: ids.length }, { accept: 'application/atom+xml' });
      const { records, total } = normalizeArxivFeed(res.xml());
      return { records, total, nextCursor: null };
    }
    const start = offsetFrom(params.cursor);
    const res = await ctx.get(
      'rest',
      '/api/query',
      { search_query: params.query, start, max_results: params.limit, sortBy: params.filters.sort_by, sortOrder: params.filters.sort_order },
      { accept: 'application/atom+xml' },
    );
    const { records, total } = normalizeArxivFeed(res.xml());
    return { records, total, nextCursor: nextOffsetCursor(start, records.length, params.limit, total) };
  },
};
