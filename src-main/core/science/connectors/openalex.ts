import { authorsField, compactCitation, displayAuthor } from '../citation';
import { requireId, asArr, asNum, asObj, asStr, compact, type Connector, type ConnectorRecord } from '../connector';
import { ConnectorError } from '../errors';
import { idsOfUrl } from '../workIdentity';

export function normalizeOpenalexWork(raw: unknown, index = 0): ConnectorRecord {
  const w = asObj(raw);
  const id = requireId('openalex', 'id', index, requireId('openalex', 'id', index, w.id).replace('https://openalex.org/', ''));
  const oa = asObj(w.open_access);
  const source = asObj(asObj(w.primary_location).source);
  const doi = asStr(w.doi);
  const names = asArr(w.authorships).map((a) => asStr(asObj(asObj(a).author).display_name)).filter(Boolean);
  const biblio = asObj(w.biblio);
  const [first, last] = [asStr(biblio.first_page), asStr(biblio.last_page)];
  return {
    id,
    title: asStr(w.display_name) || asStr(w.title) || id,
    url: doi || asStr(w.id),
    type: 'work',
    attributes: compact({
      doi: doi.replace(/^https:\/\/doi\.org\//, ''),
      work_type: asStr(w.type),
      publication_year: asNum(w.publication_year),
      publication_date: asStr(w.publication_date),
      venue: asStr(source.display_name),
      authors: names.slice(0, 20),
      cited_by_count: asNum(w.cited_by_count),
      is_oa: typeof oa.is_oa === 'boolean' ? oa.is_oa : undefined,
      oa_url: asStr(oa.oa_url),
      is_retracted: w.is_retracted === true ? true : undefined,
      pmid: asStr(asObj(w.ids).pmid).replace('https://pubmed.ncbi.nlm.nih.gov/', ''),
    }),
    citation: compactCitation({
      title: asStr(w.display_name) || asStr(w.title),
      ...authorsField(names.map(displayAuthor)),
      journal: asStr(source.display_name),
      year: asNum(w.publication_year) ?? undefined,
      volume: asStr(biblio.volume),
      issue: asStr(biblio.issue),
      pages: first && last && first !== last ? `${first}-${last}` : first || last,
      publisher: asStr(source.host_organization_name),
      doi: doi.replace(/^https:\/\/doi\.org\//, ''),
      // OpenAlex gives these as links (https://pubmed.ncbi.nlm.nih.gov/40120586).
      pmid: idsOfUrl(asStr(asObj(w.ids).pmid)).pmid,
      pmcid: idsOfUrl(asStr(asObj(w.ids).pmcid)).pmcid,
    }),
  };
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** The model passes these; they become OpenAlex `filter=key:value` pairs (values checked, keys fixed). */
const FILTER_KEYS: Record<string, string> = {
  from_publication_date: 'from_publication_date',
  to_publication_date: 'to_publication_date',
  type: 'type',
  is_oa: 'is_oa',
  title_search: 'title.search',
};

const WORK_ID = /^(W\d{1,12}|doi:10\.\d{4,9}\/\S+|https:\/\/doi\.org\/10\.\d{4,9}\/\S+|pmid:\d{1,9})$/i;

export const openalex: Connector = {
  database: 'openalex',
  label: 'OpenAlex',
  description: 'OpenAlex scholarly works: search with cursor paging and bounded filters, or one work by OpenAlex id, DOI or PMID.',
  normalizerVersion: 'openalex/2',
  operations: [
    {
      name: 'search',
      description: 'Search works (title, abstract, full text); cursor paging.',
      query: 'words, e.g. "insulin receptor structure"',
      maxLimit: 100,
      defaultLimit: 10,
      cursor: true,
      filters: {
        from_publication_date: { description: 'YYYY-MM-DD', pattern: DATE, example: '2020-01-01' },
        to_publication_date: { description: 'YYYY-MM-DD', pattern: DATE, example: '2024-12-31' },
        type: { description: 'work type', pattern: /^(article|review|preprint|book|book-chapter|dataset|dissertation|letter|editorial)$/, example: 'article' },
        is_oa: { description: 'true or false', pattern: /^(true|false)$/, example: 'true' },
        title_search: { description: 'words that must appear in the title', pattern: /^[^,|:]{1,200}$/, example: 'tensile properties' },
      },
    },
    { name: 'work', description: 'One work by OpenAlex id (W...), doi:10..., or pmid:...', query: 'e.g. W2277923667 or doi:10.1063/1.4938384', maxLimit: 1, defaultLimit: 1, cursor: false, filters: {} },
  ],
  async run(params, ctx) {
    if (params.operation === 'work') {
      const id = params.query.trim();
      if (!WORK_ID.test(id)) throw new ConnectorError('openalex', 'invalid_request', `"${id}" is not an OpenAlex work id, doi:… or pmid:….`);
      const res = await ctx.get('rest', `/works/${encodeURIComponent(id).replace(/%3A/gi, ':').replace(/%2F/gi, '/')}`, undefined, { accept: 'application/json' });
      return { records: [normalizeOpenalexWork(res.json())], total: 1, nextCursor: null };
    }
    const filter = Object.entries(params.filters)
      .map(([k, v]) => `${FILTER_KEYS[k]}:${v}`)
      .join(',');
    const res = await ctx.get(
      'rest',
      '/works',
      { search: params.query, filter: filter || undefined, 'per-page': params.limit, cursor: params.cursor ?? '*' },
      { accept: 'application/json' },
    );
    const body = asObj(res.json());
    if (!Array.isArray(body.results)) throw new Error('no "results" array');
    const meta = asObj(body.meta);
    const records = body.results.map(normalizeOpenalexWork);
    const next = asStr(meta.next_cursor);
    return { records, total: asNum(meta.count), nextCursor: next && records.length ? next : null };
  },
};
