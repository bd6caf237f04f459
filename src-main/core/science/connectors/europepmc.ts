import { authorsField, compactCitation, fullPageRange, medlineAuthor, yearIn } from '../citation';
import { requireId, asNum, asObj, asStr, compact, type Connector, type ConnectorRecord } from '../connector';

/** "Lee MS, Green R, Glover JN." -> the MEDLINE names ("et al." is no author). */
const authorStringNames = (text: string) =>
  text
    .replace(/\.$/, '')
    .split(/\s*,\s*/)
    .filter((a) => a && !/^et al\.?$/i.test(a));

export function normalizeEuropepmcResult(raw: unknown, index = 0): ConnectorRecord {
  const r = asObj(raw);
  const source = requireId('europepmc', 'source', index, r.source);
  const id = requireId('europepmc', 'id', index, r.id);
  return {
    id: `${source}:${id}`,
    title: asStr(r.title),
    url: `https://europepmc.org/article/${source}/${id}`,
    type: 'article',
    attributes: compact({
      pmid: asStr(r.pmid),
      pmcid: asStr(r.pmcid),
      doi: asStr(r.doi),
      authors: asStr(r.authorString),
      journal: asStr(r.journalTitle),
      year: asNum(r.pubYear),
      pub_type: asStr(r.pubType),
      cited_by_count: asNum(r.citedByCount),
      is_open_access: r.isOpenAccess === 'Y' ? true : r.isOpenAccess === 'N' ? false : undefined,
    }),
    citation: compactCitation({
      title: asStr(r.title),
      ...authorsField(authorStringNames(asStr(r.authorString)).map(medlineAuthor)),
      journal: asStr(r.journalTitle),
      year: yearIn(asStr(r.pubYear)),
      volume: asStr(r.journalVolume),
      issue: asStr(r.issue),
      pages: fullPageRange(asStr(r.pageInfo)),
      doi: asStr(r.doi),
      pmid: asStr(r.pmid),
      pmcid: asStr(r.pmcid),
    }),
  };
}

export const europepmc: Connector = {
  database: 'europepmc',
  label: 'Europe PMC',
  description: 'Europe PMC literature search (PubMed, PMC, preprints, patents) with cursor paging.',
  normalizerVersion: 'europepmc/2',
  operations: [
    {
      name: 'search',
      description: 'Search articles; records carry PMID/PMCID/DOI, authors, journal, year, citations, open access.',
      query: 'Europe PMC query syntax, e.g. "EXT_ID:20516115 AND SRC:MED" or plain words',
      maxLimit: 100,
      defaultLimit: 10,
      cursor: true,
      filters: {
        open_access: { description: '"true" for open-access articles only', pattern: /^true$/, example: 'true' },
        source: { description: 'MED (PubMed), PMC, PPR (preprints)', pattern: /^(MED|PMC|PPR)$/, example: 'MED' },
      },
    },
  ],
  async run(params, ctx) {
    let query = params.query;
    if (params.filters.open_access) query = `(${query}) AND OPEN_ACCESS:y`;
    if (params.filters.source) query = `(${query}) AND SRC:${params.filters.source}`;
    const cursorMark = params.cursor ?? '*';
    const res = await ctx.get(
      'rest',
      '/europepmc/webservices/rest/search',
      { query, format: 'json', resultType: 'lite', pageSize: params.limit, cursorMark },
      { accept: 'application/json' },
    );
    const body = asObj(res.json());
    const list = asObj(body.resultList).result;
    if (!Array.isArray(list)) throw new Error('no resultList.result array');
    const records = list.map(normalizeEuropepmcResult);
    const next = asStr(body.nextCursorMark);
    return { records, total: asNum(body.hitCount), nextCursor: next && next !== cursorMark && records.length === params.limit ? next : null };
  },
};
