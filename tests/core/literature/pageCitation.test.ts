import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { webFetchTool } from '../../../src-main/core/capabilities/tools/webTools';
import { bibliographyEntries, toBibtex, toRis } from '../../../src-main/core/export/bibliography';
import { recordPageEvidence } from '../../../src-main/core/provenance/evidenceRecords';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { clientFor } from '../science/helpers';
import { fixture, startFixtureServer } from '../science/fixtureServer';
import { loopback } from '../security/loopback';

/**
 * A journal's article page read with web_fetch, through the real tool and a loopback
 * server, to its BibTeX and RIS entry: the page's citation meta tags (Highwire, Dublin
 * Core) give the authors, journal, year, volume, issue, pages, publisher and DOI, kept in
 * the evidence envelope only; the text the model reads is the same as without them.
 */

const PAGES = path.join(__dirname, '../../fixtures/web-pages');
const page = (name: string) => fs.readFileSync(path.join(PAGES, name), 'utf8');
const ARTICLE = page('cell-genomics-article.html');
const REPOSITORY = page('repository-item-dc.html');
const DOI = '10.1016/j.xgen.2025.100814';

const ctx = { sessionId: 's1', runId: 'r1', workspace: '/tmp', signal: new AbortController().signal, origin: 'tool' as const };

/** Serves `pages` (path -> HTML) on 127.0.0.1 and fetches `target` with web_fetch into `store`. */
async function fetchPage(store: MemoryEvidenceStore, pages: Record<string, string>, target: string) {
  const server = await loopback((req, res) => {
    const body = pages[req.url ?? ''];
    res.writeHead(body === undefined ? 404 : 200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body ?? 'not found');
  });
  const tool = webFetchTool({
    // A test's exception to the address rule (never the model's): this loopback server only.
    egress: { allowAddress: (address, port) => address === '127.0.0.1' && port === server.port },
    onPage: (p) => recordPageEvidence(store, p).id,
  });
  const out = await tool.execute({ url: `${server.origin}${target}` }, ctx);
  const evidenceId = (out.output as { evidenceId: string }).evidenceId;
  return { out, url: `${server.origin}${target}`, evidenceId, record: store.get('s1', evidenceId)! };
}

/** The page without any meta tag: what the model would read if the page declared no citation. */
const withoutMeta = (html: string) => html.replace(/<meta\b[^>]*>/gi, '');

describe('a journal article page read with web_fetch', () => {
  it('exports its citation meta tags as a full BibTeX and RIS entry, pinned line by line', async () => {
    const store = new MemoryEvidenceStore();
    const { url, evidenceId, record } = await fetchPage(store, { '/article/xgen-2025-100814/fulltext': ARTICLE }, '/article/xgen-2025-100814/fulltext');
    expect(record.envelope.citation).toEqual({
      title: 'High-throughput screening of human genetic variants by pooled prime editing',
      authors: [
        { family: 'Herger', given: 'Michael' },
        { family: 'Kajba', given: 'Christina M.' },
        { family: 'Buckley', given: 'Megan' },
        { family: 'Cunha', given: 'Ana' },
        { family: 'Strom', given: 'Molly' },
        { family: 'Findlay', given: 'Gregory M.' },
      ],
      journal: 'Cell Genomics',
      journal_abbrev: 'Cell Genom.',
      year: 2025,
      volume: '5',
      issue: '4',
      pages: '100814',
      publisher: 'Elsevier',
      doi: DOI,
    });
    const entries = bibliographyEntries(store.list('s1'));
    expect(toBibtex(entries)).toBe(
      [
        '@article{Herger2025Highthroughput,',
        '  title = {{High-throughput screening of human genetic variants by pooled prime editing}},',
        '  author = {Herger, Michael and Kajba, Christina M. and Buckley, Megan and Cunha, Ana and Strom, Molly and Findlay, Gregory M.},',
        '  journal = {Cell Genomics},',
        '  shortjournal = {Cell Genom.},',
        '  year = {2025},',
        '  volume = {5},',
        '  number = {4},',
        '  pages = {100814},',
        '  publisher = {Elsevier},',
        `  doi = {${DOI}},`,
        `  url = {${url}},`,
        `  note = {OpenAI4S evidence ${evidenceId.replace('_', '\\_')}}`,
        '}',
        '',
      ].join('\n'),
    );
    expect(toRis(entries).split('\r\n')).toEqual([
      'TY  - JOUR',
      'TI  - High-throughput screening of human genetic variants by pooled prime editing',
      'AU  - Herger, Michael',
      'AU  - Kajba, Christina M.',
      'AU  - Buckley, Megan',
      'AU  - Cunha, Ana',
      'AU  - Strom, Molly',
      'AU  - Findlay, Gregory M.',
      'JO  - Cell Genomics',
      'J2  - Cell Genom.',
      'PY  - 2025',
      'VL  - 5',
      'IS  - 4',
      'SP  - 100814',
      'PB  - Elsevier',
      `DO  - ${DOI}`,
      `UR  - ${url}`,
      `N1  - OpenAI4S evidence ${evidenceId}`,
      'ER  - ',
      '',
    ]);
  });

  it('gives the model the same text and output as the page without meta tags: the citation is in the evidence only', async () => {
    const store = new MemoryEvidenceStore();
    const target = '/article/xgen-2025-100814/fulltext';
    const tagged = await fetchPage(store, { [target]: ARTICLE }, target);
    const bare = await fetchPage(new MemoryEvidenceStore(), { [target]: withoutMeta(ARTICLE) }, target);
    const strip = (s: string) => s.replace(/Evidence id: ev_\w+/, '').replace(/127\.0\.0\.1:\d+/g, 'host');
    expect(strip(tagged.out.text)).toBe(strip(bare.out.text));
    expect(tagged.out.text).not.toContain('Cell Genom.');
    expect(tagged.out.text).not.toContain('10.1016/j.xgen');
    expect(Object.keys(tagged.out.output as object).sort()).toEqual(Object.keys(bare.out.output as object).sort());
    expect(JSON.stringify(tagged.out.output)).not.toContain('citation');
    // The record's title and snippet are what they were; only the envelope gained the citation.
    expect(tagged.record.title).toBe(bare.record.title);
    expect(strip(tagged.record.snippet)).toBe(strip(bare.record.snippet));
    expect(bare.record.envelope).not.toHaveProperty('citation');
  });
});

describe('a repository page with Dublin Core tags only', () => {
  it('exports its DC creators, year and doi: identifier as a web entry with its access date', async () => {
    const store = new MemoryEvidenceStore();
    const { url, evidenceId, record } = await fetchPage(store, { '/handle/10044/1/118000': REPOSITORY }, '/handle/10044/1/118000');
    expect(record.envelope.citation).toEqual({
      title: 'High-throughput screening of human genetic variants by pooled prime editing',
      authors: [
        { family: 'Herger', given: 'Michael' },
        { family: 'Kajba', given: 'Christina M.' },
        { family: 'Buckley', given: 'Megan' },
        { family: 'Cunha', given: 'Ana' },
        { family: 'Strom', given: 'Molly' },
        { family: 'Findlay', given: 'Gregory M.' },
      ],
      year: 2025,
      doi: DOI,
    });
    const day = String(record.envelope.retrieved_at).slice(0, 10);
    const entries = bibliographyEntries(store.list('s1'));
    expect(toRis(entries).split('\r\n')).toEqual([
      'TY  - ELEC',
      'TI  - High-throughput screening of human genetic variants by pooled prime editing',
      'AU  - Herger, Michael',
      'AU  - Kajba, Christina M.',
      'AU  - Buckley, Megan',
      'AU  - Cunha, Ana',
      'AU  - Strom, Molly',
      'AU  - Findlay, Gregory M.',
      'PY  - 2025',
      `DO  - ${DOI}`,
      `UR  - ${url}`,
      `Y2  - ${day}`,
      `N1  - OpenAI4S evidence ${evidenceId}`,
      'ER  - ',
      '',
    ]);
    expect(toBibtex(entries)).toContain('@online{Herger2025Highthroughput,\n');
    expect(toBibtex(entries)).toContain(`  urldate = {${day}},\n`);
  });

  it('merges with the Crossref record of the same DOI into one article entry that has the journal, volume, pages and DOI link, naming both records', async () => {
    const store = new MemoryEvidenceStore();
    const { evidenceId } = await fetchPage(store, { '/handle/10044/1/118000': REPOSITORY }, '/handle/10044/1/118000');
    const s = await startFixtureServer({ [`/works/${DOI}`]: { body: fixture('crossref-work-10.1016-j.xgen.2025.100814.json') } });
    try {
      const { client } = clientFor(s.base, { evidence: store });
      await client.search('crossref', { operation: 'work', query: DOI }, { sessionId: 's1' });
    } finally {
      await s.close();
    }
    const entries = bibliographyEntries(store.list('s1'));
    expect(entries).toHaveLength(1);
    expect(toRis(entries).split('\r\n')).toEqual([
      'TY  - JOUR',
      'TI  - High-throughput screening of human genetic variants by pooled prime editing',
      'AU  - Herger, Michael',
      'AU  - Kajba, Christina M.',
      'AU  - Buckley, Megan',
      'AU  - Cunha, Ana',
      'AU  - Strom, Molly',
      'AU  - Findlay, Gregory M.',
      'JO  - Cell Genomics',
      'PY  - 2025',
      'VL  - 5',
      'IS  - 4',
      'SP  - 100814',
      'PB  - Elsevier BV',
      `DO  - ${DOI}`,
      // The richer record's link (Crossref's, the DOI), and both records: a claim may cite either.
      `UR  - https://doi.org/${DOI}`,
      `N1  - OpenAI4S evidence ${evidenceId}, ${store.list('s1').find((r) => r.envelope.database === 'crossref')!.id}`,
      'ER  - ',
      '',
    ]);
  });
});

describe('a page without citation tags', () => {
  it('exports the title, URL and access date as before, and its evidence has no citation', async () => {
    const store = new MemoryEvidenceStore();
    const html = '<!doctype html><html><head><title>Prime editing - Wikipedia</title><meta property="og:title" content="Prime editing"><meta name="description" content="Genome editing method"></head><body><p>Prime editing is a genome editing method.</p></body></html>';
    const { url, evidenceId, record } = await fetchPage(store, { '/wiki/Prime_editing': html }, '/wiki/Prime_editing');
    // og:title alone does not make a citation: every site writes it.
    expect(record.envelope).not.toHaveProperty('citation');
    const day = String(record.envelope.retrieved_at).slice(0, 10);
    const entries = bibliographyEntries(store.list('s1'));
    expect(toRis(entries).split('\r\n')).toEqual(['TY  - ELEC', 'TI  - Prime editing - Wikipedia', `UR  - ${url}`, `Y2  - ${day}`, `N1  - OpenAI4S evidence ${evidenceId}`, 'ER  - ', '']);
    expect(toBibtex(entries)).toBe(
      ['@online{PrimePrime,', '  title = {{Prime editing - Wikipedia}},', `  url = {${url}},`, `  urldate = {${day}},`, `  note = {OpenAI4S evidence ${evidenceId.replace('_', '\\_')}}`, '}', ''].join('\n'),
    );
  });
});
