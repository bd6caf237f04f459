import { describe, expect, it } from 'vitest';
import { bibliographyEntries, toBibtex, toRis } from '../../../src-main/core/export/bibliography';
import { MemoryEvidenceStore, type NewEvidence } from '../../../src-main/core/records/evidenceStore';
import { entryCiting, idOf, page, search } from './routes';

/**
 * What makes two records one work in the bibliography, and what never does: the published
 * version an arXiv record names by DOI joins the e-print; identifiers written differently
 * (DOI case and prefixes, arXiv versions, old-style ids, PDF links with query strings) are
 * one; different DOIs, e-prints, PMIDs or PMCIDs, or a shared title, never are.
 */

/** Evidence as the science client, fetch_open_access and the Navigator record it (database, record id, url, citation). */
function add(store: MemoryEvidenceStore, key: string, title: string, envelope: Record<string, unknown>): string {
  const e: NewEvidence = { sessionId: 's1', kind: 'retrieval', key, title, snippet: '', envelope };
  return store.record(e).id;
}
const crossref = (store: MemoryEvidenceStore, doi: string, citation: Record<string, unknown>) =>
  add(store, `crossref|${doi}`, `Crossref ${doi}: ${String(citation.title ?? '')}`, { database: 'crossref', operation: 'work', record_id: doi, url: `https://doi.org/${doi}`, type: 'journal-article', citation: { doi, ...citation } });
const arxivRecord = (store: MemoryEvidenceStore, id: string, citation: Record<string, unknown>) =>
  add(store, `arxiv|${id}`, `arXiv ${id}: ${String(citation.title ?? '')}`, { database: 'arxiv', operation: 'id', record_id: id, url: `https://arxiv.org/abs/${id}`, type: 'preprint', citation });
const arxivDownload = (store: MemoryEvidenceStore, id: string, sha: string) =>
  add(store, `pdf|${sha}`, `arXiv ${id} (open-access PDF)`, { database: 'pdf', media_type: 'application/pdf', path: `papers/arxiv-${id}.pdf`, url: `https://arxiv.org/pdf/${id}`, sha256: sha, source: 'arxiv', record_id: id });

const SEARCH = { '/api/query': 'arxiv-api-query-search-testing-max10.atom.xml' };
const byEprint = (store: MemoryEvidenceStore, prefix: string) => bibliographyEntries(store.list('s1')).find((e) => e.arxiv.startsWith(prefix))!;

describe('an arXiv e-print and its published version', () => {
  it('are one article entry when the arXiv record names the DOI: the journal’s fields, the e-print kept as eprint', async () => {
    const store = new MemoryEvidenceStore();
    await search(store, SEARCH, 'arxiv', { operation: 'search', query: 'testing' });
    // The published version of 2005.14124 as Crossref would give it (the values of its journal_ref).
    const published = crossref(store, '10.1145/3395363.3397376', { title: 'Active fuzzing for testing and securing cyber-physical systems', journal: 'Proceedings of the 29th ACM SIGSOFT International Symposium on Software Testing and Analysis', year: 2020, pages: '14-26', publisher: 'ACM' });
    const entries = bibliographyEntries(store.list('s1'));
    expect(entries).toHaveLength(10);
    const entry = byEprint(store, '2005.14124');
    expect(entry.evidenceIds).toEqual([idOf(store, 'arxiv', '2005.14124v2'), published]);
    expect(entry).toMatchObject({ type: 'article', title: 'Active fuzzing for testing and securing cyber-physical systems', pages: '14-26', publisher: 'ACM', year: 2020, doi: '10.1145/3395363.3397376', arxiv: '2005.14124v2' });
    // Authors with family and given names apart: Crossref’s stand-in above has none, arXiv’s record has them.
    expect(entry.authors.slice(0, 2)).toEqual(['Chen, Yuqi', 'Xuan, Bohan']);
    const bib = toBibtex([entry]);
    expect(bib).toMatch(/^@article\{Chen2020Active,/);
    expect(bib).toContain('  eprint = {2005.14124v2},\n  archiveprefix = {arXiv},');
  });

  it('join however the DOI is written: a Navigator reference with a doi.org link in other case joins arXiv’s ICSTW55395', async () => {
    const store = new MemoryEvidenceStore();
    await search(store, SEARCH, 'arxiv', { operation: 'search', query: 'testing' });
    const nav = add(store, 'nav|ref|1', 'Testing Deep Learning Models', { database: 'bohrium_navigator', role: 'reference', type: 'paper', authors: ['Mohit Kumar Ahuja'], journal: 'ICSTW', year: 2022, doi: 'https://doi.org/10.1109/icstw55395.2022.00035' });
    const entry = byEprint(store, '2202.12139');
    expect(entry.evidenceIds).toEqual([idOf(store, 'arxiv', '2202.12139v1'), nav]);
    // The DOI as the richer record wrote it, bare (a doi field holding a link prints it twice);
    // the authors of the record that has them apart.
    expect(entry).toMatchObject({ type: 'article', journal: 'ICSTW', doi: '10.1109/icstw55395.2022.00035' });
    expect(toBibtex([entry])).toContain('  doi = {10.1109/icstw55395.2022.00035},');
    expect(entry.authors[0]).toBe('Ahuja, Mohit Kumar');
  });

  it('stay apart from another work: a record naming one e-print and another work’s DOI joins neither', async () => {
    const store = new MemoryEvidenceStore();
    await search(store, SEARCH, 'arxiv', { operation: 'search', query: 'testing' });
    // An abstract page of 2005.14124 whose tags declare 2202.12139’s published DOI.
    const confused = page(store, 'https://arxiv.org/abs/2005.14124v2', { title: 'Active Fuzzing', citation: { title: 'Active Fuzzing', doi: '10.1109/ICSTW55395.2022.00035' } });
    const entries = bibliographyEntries(store.list('s1'));
    expect(entries).toHaveLength(11);
    expect(entryCiting(entries, confused)[0]!.evidenceIds).toEqual([confused]);
    expect(byEprint(store, '2005.14124').evidenceIds).toHaveLength(1);
    expect(byEprint(store, '2202.12139').evidenceIds).toHaveLength(1);
  });

  it('stay apart from a journal version with another DOI and the same title: a title names no work', async () => {
    const store = new MemoryEvidenceStore();
    await search(store, SEARCH, 'arxiv', { operation: 'search', query: 'testing' });
    crossref(store, '10.1000/extended.2024.1', { title: 'ChatGPT and Software Testing Education: Promises & Perils', journal: 'Extended', year: 2024 });
    expect(bibliographyEntries(store.list('s1'))).toHaveLength(11);
  });
});

describe('links that name no one work', () => {
  it('a site’s home page given as two references’ link joins neither: only the same page address does', () => {
    const store = new MemoryEvidenceStore();
    const nav = (key: string, title: string, extra: Record<string, unknown>) => add(store, key, title, { database: 'bohrium_navigator', role: 'reference', type: 'paper', url: 'https://www.science.org/', ...extra });
    const a = nav('nav|a', 'First paper', { doi: '10.1126/science.a' });
    const b = nav('nav|b', 'Second paper', {});
    const page1 = page(store, 'https://example.org/paper?id=7#results');
    const page2 = page(store, 'HTTPS://EXAMPLE.ORG/paper?id=7');
    const page3 = page(store, 'https://example.org/paper?id=8');
    expect(bibliographyEntries(store.list('s1')).map((e) => e.evidenceIds)).toEqual([[a], [b], [page1, page2], [page3]]);
  });
});

describe('identifiers written differently are one work', () => {
  it('a DOI in any case, behind doi:, doi.org or a percent-escaped link', () => {
    const store = new MemoryEvidenceStore();
    const cr = crossref(store, '10.1056/NEJMoa2031054', { title: 'CRISPR-Cas9 Gene Editing for Sickle Cell Disease and β-Thalassemia', journal: 'New England Journal of Medicine', volume: '384', pages: '252-260', year: 2021 });
    const nav = add(store, 'nav|1', 'CRISPR-Cas9 Gene Editing', { database: 'bohrium_navigator', role: 'reference', type: 'paper', doi: 'doi:10.1056/NEJMOA2031054' });
    const link = page(store, 'https://doi.org/10.1056%2Fnejmoa2031054');
    const entries = bibliographyEntries(store.list('s1'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ evidenceIds: [cr, nav, link], doi: '10.1056/NEJMoa2031054', volume: '384' });
  });

  it('one DOI through PubMed (recorded efetch) and Crossref in capitals: one entry with the PMID; the other PubMed record apart', async () => {
    const store = new MemoryEvidenceStore();
    await search(store, { '/entrez/eutils/efetch.fcgi': 'ncbi-eutils-efetch-pubmed.xml' }, 'pubmed', { operation: 'fetch', query: '11748933,11700088' });
    const cr = crossref(store, '10.1006/CRYO.2001.2328', { title: 'Is cryopreservation a homogeneous process?', journal: 'Cryobiology', volume: '42', issue: '4', pages: '244-255', publisher: 'Elsevier BV', year: 2001 });
    const entries = bibliographyEntries(store.list('s1'));
    expect(entries.map((e) => e.evidenceIds)).toEqual([[idOf(store, 'pubmed', '11748933'), cr], [idOf(store, 'pubmed', '11700088')]]);
    // PubMed's record is the richer (every author): its DOI as written, Crossref's publisher added.
    expect(entries[0]).toMatchObject({ pmid: '11748933', doi: '10.1006/cryo.2001.2328', publisher: 'Elsevier BV', journal: 'Cryobiology', pages: '244-255' });
    expect(toRis(entries)).toContain('AN  - PMID:11748933\r\n');
  });

  it('an old-style e-print: versions, a subject class, a PDF link with .pdf and a query string; another archive with the same number is another e-print', () => {
    const store = new MemoryEvidenceStore();
    const rec = arxivRecord(store, 'hep-th/9901001v2', { title: 'Old-style e-print', year: 1999 });
    const pdf = arxivDownload(store, 'hep-th/9901001', 'b'.repeat(64));
    const link = page(store, 'https://arxiv.org/pdf/hep-th/9901001v1.pdf?download=1', { contentType: 'application/pdf' });
    const other = arxivRecord(store, 'hep-ph/9901001v1', { title: 'Another archive', year: 1999 });
    const gt = arxivDownload(store, 'math.GT/0309136', 'c'.repeat(64));
    const math = arxivRecord(store, 'math/0309136v1', { title: 'Subject class aside', year: 2003 });
    const entries = bibliographyEntries(store.list('s1'));
    expect(entries.map((e) => e.evidenceIds)).toEqual([[rec, pdf, link], [other], [gt, math]]);
    // The routes name v2, no version and v1: the entry cites the e-print.
    expect(entries.map((e) => e.arxiv)).toEqual(['hep-th/9901001', 'hep-ph/9901001v1', 'math/0309136']);
    expect(toRis(entries)).toContain('AN  - arXiv:hep-th/9901001\r\n');
  });

  it('keeps the version every route names, and arXiv’s own DOI (10.48550) is the e-print', () => {
    const store = new MemoryEvidenceStore();
    const rec = arxivRecord(store, '1605.08386v1', { title: 'Heat-bath random walks with Markov bases', year: 2016 });
    const abs = page(store, 'https://arxiv.org/abs/1605.08386v1');
    const datacite = add(store, 'openalex|W1', 'OpenAlex W1: Heat-bath random walks with Markov bases', { database: 'openalex', record_id: 'W1', url: 'https://doi.org/10.48550/arxiv.1605.08386', citation: { title: 'Heat-bath random walks with Markov bases', doi: '10.48550/arXiv.1605.08386' } });
    const entries = bibliographyEntries(store.list('s1'));
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ type: 'preprint', evidenceIds: [rec, abs, datacite], arxiv: '1605.08386v1', doi: '10.48550/arXiv.1605.08386' });
    // Alone, OpenAlex's record of the e-print is a preprint too (its DOI is arXiv's).
    expect(bibliographyEntries(store.list('s1').filter((r) => r.id === datacite))[0]!.type).toBe('preprint');
  });

  it('a PMID and a PMCID through PubMed, Europe PMC and PMC links; two PMIDs for one DOI stay apart', () => {
    const store = new MemoryEvidenceStore();
    const pm = add(store, 'pubmed|20516115', 'PubMed 20516115: BRCT', { database: 'pubmed', record_id: '20516115', url: 'https://pubmed.ncbi.nlm.nih.gov/20516115/', citation: { title: 'BRCT', pmcid: 'PMC3040717' } });
    const pmc = page(store, 'https://pmc.ncbi.nlm.nih.gov/articles/PMC3040717/');
    const epmc = page(store, 'https://europepmc.org/abstract/MED/20516115');
    // One DOI given to two PMIDs is a record in error: neither is merged into the other.
    const a = add(store, 'pubmed|1', 'PubMed 1: A', { database: 'pubmed', record_id: '1', citation: { title: 'A', doi: '10.1000/same' } });
    const b = add(store, 'europepmc|MED:2', 'Europe PMC MED:2: A', { database: 'europepmc', record_id: 'MED:2', citation: { title: 'A', doi: '10.1000/SAME' } });
    expect(bibliographyEntries(store.list('s1')).map((e) => e.evidenceIds)).toEqual([[pm, pmc, epmc], [a], [b]]);
  });
});
