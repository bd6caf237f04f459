import { authorsField, compactCitation, fullPageRange, medlineAuthor, personAuthor, yearIn } from '../citation';
import { requireId, asArr, asNum, asObj, asStr, compact, nextOffsetCursor, offsetFrom, type Connector, type ConnectorRecord } from '../connector';
import { ConnectorError } from '../errors';
import { child, children, textOf, type XmlElement } from '../xml';

const EUTILS = '/entrez/eutils';
const pubmedUrl = (pmid: string) => `https://pubmed.ncbi.nlm.nih.gov/${pmid}/`;
/** NCBI asks callers to identify themselves with `tool` (and `email`, not sent: we have none to give). */
const TOOL = 'openai4s';

/** esummary v1 XML (DocSum with Item Name=...) to records. */
export function normalizeEsummary(root: XmlElement): ConnectorRecord[] {
  if (root.name !== 'eSummaryResult') throw new Error(`the root element is <${root.name}>, not <eSummaryResult>`);
  const err = textOf(child(root, 'ERROR'));
  if (err) throw new ConnectorError('pubmed', 'http_error', `esummary refused the request: ${err}`);
  return children(root, 'DocSum').map((doc, index) => {
    const pmid = requireId('pubmed', 'Id', index, child(doc, 'Id') ? textOf(child(doc, 'Id')) : undefined);
    const items = children(doc, 'Item');
    const item = (name: string) => items.find((i) => i.attrs.Name === name);
    const list = (name: string) => children(item(name), 'Item').map(textOf).filter(Boolean);
    const ids = children(item('ArticleIds'), 'Item');
    const idOf = (name: string) => textOf(ids.find((i) => i.attrs.Name === name));
    const doi = textOf(item('DOI')) || idOf('doi');
    return {
      id: pmid,
      title: textOf(item('Title')),
      url: pubmedUrl(pmid),
      type: 'article',
      attributes: compact({
        pmid,
        journal: textOf(item('Source')),
        pub_date: textOf(item('PubDate')),
        authors: list('AuthorList').slice(0, 20),
        volume: textOf(item('Volume')),
        issue: textOf(item('Issue')),
        pages: textOf(item('Pages')),
        pub_types: list('PubTypeList'),
        doi,
        pmcid: idOf('pmc') || idOf('pmcid'),
      }),
      // Every author (MEDLINE "LoPresti PJ"), the full journal name besides its abbreviation.
      citation: compactCitation({
        title: textOf(item('Title')),
        ...authorsField(list('AuthorList').map(medlineAuthor)),
        journal: textOf(item('FullJournalName')) || textOf(item('Source')),
        journal_abbrev: textOf(item('Source')),
        year: yearIn(textOf(item('PubDate'))),
        volume: textOf(item('Volume')),
        issue: textOf(item('Issue')),
        pages: fullPageRange(textOf(item('Pages'))),
        doi,
        pmid,
        pmcid: idOf('pmc') || idOf('pmcid'),
      }),
    };
  });
}

/** efetch PubmedArticleSet XML: titles and abstracts. */
export function normalizeEfetch(root: XmlElement): ConnectorRecord[] {
  if (root.name !== 'PubmedArticleSet') throw new Error(`the root element is <${root.name}>, not <PubmedArticleSet>`);
  return children(root, 'PubmedArticle').map((a, index) => {
    const cit = child(a, 'MedlineCitation');
    const art = child(cit, 'Article');
    const pmid = requireId('pubmed', 'PMID', index, child(cit, 'PMID') ? textOf(child(cit, 'PMID')) : undefined);
    const abstract = children(child(art, 'Abstract'), 'AbstractText')
      .map((t) => (t.attrs.Label ? `${t.attrs.Label}: ${textOf(t)}` : textOf(t)))
      .join('\n');
    const journal = child(art, 'Journal');
    const pubDate = child(child(journal, 'JournalIssue'), 'PubDate');
    const authorList = children(child(art, 'AuthorList'), 'Author');
    const authors = authorList.map((au) =>
      [textOf(child(au, 'LastName')), textOf(child(au, 'Initials'))].filter(Boolean).join(' ') || textOf(child(au, 'CollectiveName')),
    );
    const articleIds = children(child(child(a, 'PubmedData'), 'ArticleIdList'), 'ArticleId');
    const issue = child(journal, 'JournalIssue');
    const pagination = child(art, 'Pagination');
    const startPage = textOf(child(pagination, 'StartPage'));
    const endPage = textOf(child(pagination, 'EndPage'));
    const doi = textOf(articleIds.find((i) => i.attrs.IdType === 'doi'));
    return {
      id: pmid,
      title: textOf(child(art, 'ArticleTitle')),
      url: pubmedUrl(pmid),
      type: 'article',
      attributes: compact({
        pmid,
        journal: textOf(child(journal, 'Title')),
        year: textOf(child(pubDate, 'Year')) || textOf(child(pubDate, 'MedlineDate')),
        authors: authors.filter(Boolean).slice(0, 20),
        doi,
        mesh_terms: children(child(cit, 'MeshHeadingList'), 'MeshHeading').map((m) => textOf(child(m, 'DescriptorName'))).slice(0, 30),
        abstract: abstract.length > 4000 ? `${abstract.slice(0, 3999)}…` : abstract,
      }),
      citation: compactCitation({
        title: textOf(child(art, 'ArticleTitle')),
        ...authorsField(
          authorList.map((au) =>
            personAuthor(textOf(child(au, 'LastName')), textOf(child(au, 'ForeName')) || textOf(child(au, 'Initials')), textOf(child(au, 'CollectiveName')), textOf(child(au, 'Suffix'))),
          ),
        ),
        journal: textOf(child(journal, 'Title')),
        journal_abbrev: textOf(child(journal, 'ISOAbbreviation')),
        year: yearIn(textOf(child(pubDate, 'Year')) || textOf(child(pubDate, 'MedlineDate'))),
        volume: textOf(child(issue, 'Volume')),
        issue: textOf(child(issue, 'Issue')),
        pages: startPage ? [startPage, endPage].filter(Boolean).join('-') : fullPageRange(textOf(child(pagination, 'MedlinePgn'))),
        doi: doi || textOf(children(art, 'ELocationID').find((e) => e.attrs.EIdType === 'doi')),
        pmid,
        pmcid: textOf(articleIds.find((i) => i.attrs.IdType === 'pmc')),
      }),
    };
  });
}

const DATE = /^\d{4}(\/\d{2}(\/\d{2})?)?$/;

export const pubmed: Connector = {
  database: 'pubmed',
  label: 'PubMed',
  description: 'PubMed through NCBI E-utilities: search (esearch then esummary) or abstracts of PMIDs (efetch).',
  normalizerVersion: 'pubmed/2',
  operations: [
    {
      name: 'search',
      description: 'esearch for PMIDs, then esummary for title, journal, date, authors, DOI.',
      query: 'PubMed query syntax, e.g. "BRAF V600E[tiab] AND melanoma"',
      maxLimit: 100,
      defaultLimit: 10,
      cursor: true,
      filters: {
        mindate: { description: 'YYYY, YYYY/MM or YYYY/MM/DD (with maxdate)', pattern: DATE, example: '2020/01/01' },
        maxdate: { description: 'YYYY, YYYY/MM or YYYY/MM/DD (with mindate)', pattern: DATE, example: '2024/12/31' },
        sort: { description: 'relevance or pub_date', pattern: /^(relevance|pub_date)$/, example: 'pub_date' },
      },
    },
    { name: 'fetch', description: 'Titles, abstracts and MeSH terms of PMIDs (efetch).', query: 'PMIDs, comma-separated (up to 20)', maxLimit: 20, defaultLimit: 20, cursor: false, filters: {} },
  ],
  async run(params, ctx) {
    if (params.operation === 'fetch') {
      const ids = params.query.split(',').map((s) => s.trim()).filter(Boolean);
      if (!ids.length || ids.length > 20 || ids.some((i) => !/^\d{1,9}$/.test(i))) {
        throw new ConnectorError('pubmed', 'invalid_request', 'fetch takes 1 to 20 PMIDs (digits), comma-separated.');
      }
      const res = await ctx.get('rest', `${EUTILS}/efetch.fcgi`, { db: 'pubmed', id: ids.join(','), retmode: 'xml', tool: TOOL }, { accept: 'application/xml' });
      return { records: normalizeEfetch(res.xml()), total: ids.length, nextCursor: null };
    }
    if (Boolean(params.filters.mindate) !== Boolean(params.filters.maxdate)) {
      throw new ConnectorError('pubmed', 'invalid_request', 'E-utilities needs mindate and maxdate together.');
    }
    const start = offsetFrom(params.cursor);
    const search = await ctx.get(
      'rest',
      `${EUTILS}/esearch.fcgi`,
      {
        db: 'pubmed',
        term: params.query,
        retmode: 'json',
        retmax: params.limit,
        retstart: start,
        sort: params.filters.sort,
        mindate: params.filters.mindate,
        maxdate: params.filters.maxdate,
        datetype: params.filters.mindate ? 'pdat' : undefined,
        tool: TOOL,
      },
      { accept: 'application/json' },
    );
    const result = asObj(asObj(search.json()).esearchresult);
    if (result.ERROR || result.errorlist === undefined && !Array.isArray(result.idlist)) {
      throw new ConnectorError('pubmed', 'http_error', `esearch refused the query: ${asStr(result.ERROR) || 'no idlist in the answer'}`);
    }
    const ids = asArr(result.idlist).map(asStr).filter(Boolean).slice(0, params.limit);
    const total = asNum(result.count);
    if (!ids.length) return { records: [], total, nextCursor: null };
    const summary = await ctx.get('rest', `${EUTILS}/esummary.fcgi`, { db: 'pubmed', id: ids.join(','), retmode: 'xml', tool: TOOL }, { accept: 'application/xml' });
    const records = normalizeEsummary(summary.xml());
    return { records, total, nextCursor: nextOffsetCursor(start, ids.length, params.limit, total) };
  },
};
