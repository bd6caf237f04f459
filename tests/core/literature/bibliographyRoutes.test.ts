import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { webFetchTool } from '../../../src-main/core/capabilities/tools/webTools';
import { bibliographyEntries, toBibtex, toRis } from '../../../src-main/core/export/bibliography';
import { recordPageEvidence } from '../../../src-main/core/provenance/evidenceRecords';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { fixture } from '../science/fixtureServer';
import { loopback } from '../security/loopback';
import { makePdf } from './makePdf';
import { download, entryCiting, idOf, page, readPdf, search } from './routes';

/**
 * One work reached by several routes is one bibliography entry, from the recorded answers
 * of arXiv, Crossref, OpenAlex and Europe PMC: every route's evidence id leads to it (a
 * claim citing any of them), and its fields come from the richest record.
 */

let workspace: string;
beforeEach(() => {
  workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bib-routes-'));
});
afterEach(() => fs.rmSync(workspace, { recursive: true, force: true }));

const ris = (store: MemoryEvidenceStore) => toRis(bibliographyEntries(store.list('s1'))).split('\r\n');

describe('an arXiv e-print reached as a record, a downloaded PDF, pages read and a PDF link', () => {
  it('is one preprint entry naming every route, its authors from the arXiv record, the e-print without a version', async () => {
    const store = new MemoryEvidenceStore();
    await search(store, { '/api/query': 'arxiv-api-query-id_list-1605.08386.atom.xml' }, 'arxiv', { operation: 'id', query: '1605.08386' });
    const record = idOf(store, 'arxiv');
    // The PDF's own metadata names a title and authors unlike arXiv's: the arXiv record is richer.
    const pdf = makePdf(['Heat-bath random walks.', 'Markov bases.'], 'heatbath_final.dvi', 'cstanley');
    const saved = await download(store, workspace, 'arxiv', '1605.08386', pdf);
    const firstPages = await readPdf(store, workspace, saved.path, 1, 1);
    const laterPages = await readPdf(store, workspace, saved.path, 2, 2);
    // The same e-print fetched as a link, version 2, with a query string.
    const link = page(store, 'https://arxiv.org/pdf/1605.08386v2?download=1', { contentType: 'application/pdf' });
    const routes = [record, saved.evidenceId, firstPages, laterPages, link];

    const entries = bibliographyEntries(store.list('s1'));
    expect(entries).toHaveLength(1);
    for (const id of routes) expect(entryCiting(entries, id)).toEqual([entries[0]]);
    expect(entries[0]).toMatchObject({ type: 'preprint', evidenceId: record, evidenceIds: routes, title: 'Heat-bath random walks with Markov bases', authors: ['Stanley, Caprice', 'Windisch, Tobias'], year: 2016, url: 'https://arxiv.org/abs/1605.08386v1' });
    // The record names v1, the download the latest: the entry cites the e-print.
    expect(toBibtex(entries)).toContain('  eprint = {1605.08386},\n  archiveprefix = {arXiv},');
    expect(ris(store)).toContain(`N1  - OpenAI4S evidence ${routes.join(', ')}`);
  });

  it('joins a PDF read at a publisher’s address to the same bytes read in the workspace; an HTML page of the same bytes stays apart', async () => {
    const store = new MemoryEvidenceStore();
    const pdf = makePdf(['Journal version.'], 'Journal version');
    const fetched = page(store, 'https://publisher.example/article/42.pdf', { contentType: 'application/pdf', body: pdf });
    fs.writeFileSync(path.join(workspace, 'article.pdf'), pdf);
    const read = await readPdf(store, workspace, 'article.pdf');
    // Two error pages of one site are the same bytes and no one work.
    const soft404a = page(store, 'https://publisher.example/a', { body: Buffer.from('<html>Not found</html>') });
    const soft404b = page(store, 'https://publisher.example/b', { body: Buffer.from('<html>Not found</html>') });
    expect(bibliographyEntries(store.list('s1')).map((e) => e.evidenceIds)).toEqual([[fetched, read], [soft404a], [soft404b]]);
  });

  it('keeps another PDF read in the same session apart (other bytes, no identifier)', async () => {
    const store = new MemoryEvidenceStore();
    await search(store, { '/api/query': 'arxiv-api-query-id_list-1605.08386.atom.xml' }, 'arxiv', { operation: 'id', query: '1605.08386' });
    await download(store, workspace, 'arxiv', '1605.08386', makePdf(['Heat-bath random walks.']));
    fs.writeFileSync(path.join(workspace, 'notes.pdf'), makePdf(['Lab notes.'], 'Lab notes'));
    const other = await readPdf(store, workspace, 'notes.pdf');
    const entries = bibliographyEntries(store.list('s1'));
    expect(entries.map((e) => e.title)).toEqual(['Heat-bath random walks with Markov bases', 'Lab notes']);
    expect(entryCiting(entries, other)[0]!.evidenceIds).toEqual([other]);
  });
});

describe('one DOI reached through Crossref, OpenAlex, the publisher’s page and a doi.org link in capitals', () => {
  it('is one article entry with Crossref’s fields, OpenAlex’s PMID and all four records', async () => {
    const store = new MemoryEvidenceStore();
    const DOI = '10.1016/j.xgen.2025.100814';
    await search(store, { [`/works/${DOI}`]: 'crossref-work-10.1016-j.xgen.2025.100814.json' }, 'crossref', { operation: 'work', query: DOI });
    await search(store, { [`/works/doi:${DOI}`]: 'openalex-work-doi-10.1016-j.xgen.2025.100814.json' }, 'openalex', { operation: 'work', query: `doi:${DOI}` });
    const article = fs.readFileSync(path.join(__dirname, '../../fixtures/web-pages/cell-genomics-article.html'), 'utf8');
    const server = await loopback((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(article);
    });
    const fetched = await webFetchTool({ egress: { allowAddress: (a, p) => a === '127.0.0.1' && p === server.port }, onPage: (p) => recordPageEvidence(store, p).id }).execute(
      { url: `${server.origin}/article/xgen-2025-100814/fulltext` },
      { sessionId: 's1', runId: 'r1', workspace, signal: new AbortController().signal, origin: 'tool' as const },
    );
    const publisherPage = (fetched.output as { evidenceId: string }).evidenceId;
    const doiLink = page(store, 'https://doi.org/10.1016/J.XGEN.2025.100814', { finalUrl: 'https://www.cell.com/cell-genomics/fulltext/S2666-979X(25)00070-6', title: 'Cell Genomics' });
    const crossref = idOf(store, 'crossref');
    const openalex = idOf(store, 'openalex');

    const entries = bibliographyEntries(store.list('s1'));
    expect(entries).toHaveLength(1);
    expect(entries[0]!.evidenceIds).toEqual([crossref, openalex, publisherPage, doiLink]);
    const authors = (JSON.parse(fixture('crossref-work-10.1016-j.xgen.2025.100814.json').toString()) as { message: { author: unknown[] } }).message.author;
    const lines = ris(store);
    expect(lines.filter((l) => l.startsWith('AU  - '))).toHaveLength(authors.length);
    for (const line of ['TY  - JOUR', 'JO  - Cell Genomics', 'PY  - 2025', 'VL  - 5', 'IS  - 4', 'SP  - 100814', 'PB  - Elsevier BV', `DO  - ${DOI}`, `UR  - https://doi.org/${DOI}`, 'AN  - PMID:40120586']) expect(lines).toContain(line);
  });
});

describe('a Europe PMC record reached as its PMC PDF, its DOI in capitals and its PubMed page', () => {
  it('is one entry with the PMID; the other works of a many-hit search stay one entry each, a PMC record joined by its PDF', async () => {
    const store = new MemoryEvidenceStore();
    await search(store, { '/europepmc/webservices/rest/search': 'europepmc-search-ext_id-20516115.json' }, 'europepmc', { operation: 'search', query: 'EXT_ID:20516115 AND SRC:MED' });
    const record = idOf(store, 'europepmc', 'MED:20516115');
    const saved = await download(store, workspace, 'europepmc', 'PMC3040717', makePdf(['BRCT domain.']));
    const doiLink = page(store, 'https://doi.org/10.1158/0008-5472.CAN-09-4563');
    const pubmedPage = page(store, 'https://pubmed.ncbi.nlm.nih.gov/20516115/', { title: 'Comprehensive analysis - PubMed' });
    await search(store, { '/europepmc/webservices/rest/search': 'europepmc-search-mlh1-variant.json' }, 'europepmc', { operation: 'search', query: 'MLH1 p.Gly67Glu' });
    const hits = (JSON.parse(fixture('europepmc-search-mlh1-variant.json').toString()) as { resultList: { result: unknown[] } }).resultList.result.length;
    // The search's PMC-only record (PMC:PMC11627200, no PMID or DOI) and its open-access PDF.
    const pmcOnly = idOf(store, 'europepmc', 'PMC:PMC11627200');
    const pmcPdf = (await download(store, workspace, 'europepmc', 'PMC11627200', makePdf(['MLH1.']))).evidenceId;

    const entries = bibliographyEntries(store.list('s1'));
    expect(entries).toHaveLength(1 + hits);
    expect(entries[0]!.evidenceIds).toEqual([record, saved.evidenceId, doiLink, pubmedPage]);
    expect(entries[0]).toMatchObject({ type: 'article', pmid: '20516115', doi: '10.1158/0008-5472.can-09-4563', journal: 'Cancer Res', pages: '4880-4890' });
    expect(entryCiting(entries, pmcPdf)[0]!.evidenceIds).toEqual([pmcOnly, pmcPdf]);
    expect(entries.slice(1).filter((e) => e.evidenceIds.length > 1)).toHaveLength(1);
  });
});
