import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readPdfTool } from '../../../src-main/core/capabilities/tools/pdfTools';
import { formatSearchForModel } from '../../../src-main/core/capabilities/tools/scienceTools';
import { navigatorTool } from '../../../src-main/core/capabilities/tools/navigatorTools';
import { bibliographyEntries, toBibtex, toRis } from '../../../src-main/core/export/bibliography';
import { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { clientFor } from '../science/helpers';
import { fixture, startFixtureServer } from '../science/fixtureServer';
import { startNavigatorServer } from '../science/navigator/navigatorServer';
import { makePdf } from './makePdf';

/**
 * From the recorded answer of each literature source to the BibTeX and RIS entry: every
 * bibliographic field the source gives (authors as family and given names, journal, year,
 * volume, issue, pages, publisher, DOI, URL) reaches both formats, while the model still
 * reads the record's short attributes only.
 */

let server: { close: () => Promise<void> } | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** One science call in a session, through the real client, from the recorded bytes. */
async function retrieve(routes: Record<string, string>, database: string, input: { operation: string; query: string }) {
  const s = await startFixtureServer(Object.fromEntries(Object.entries(routes).map(([p, f]) => [p, { body: fixture(f) }])));
  server = s;
  const { client, evidence } = clientFor(s.base);
  const result = await client.search(database, input, { sessionId: 's1' });
  const entries = bibliographyEntries(evidence.list('s1'));
  return { result, evidence, entries, bib: toBibtex(entries), ris: toRis(entries).split('\r\n') };
}

/** The RIS lines of the first record (up to its ER). */
const firstRecord = (ris: string[]) => ris.slice(0, ris.indexOf('ER  - ') + 1);

describe('Crossref records in the bibliography', () => {
  it('carry every author (family, given), the journal, year, volume, issue, pages and publisher into BibTeX and RIS', async () => {
    const { result, bib, ris, entries } = await retrieve({ '/works/10.1016/j.xgen.2025.100814': 'crossref-work-10.1016-j.xgen.2025.100814.json' }, 'crossref', { operation: 'work', query: '10.1016/j.xgen.2025.100814' });
    const authors = (JSON.parse(fixture('crossref-work-10.1016-j.xgen.2025.100814.json').toString()) as { message: { author: { family: string; given: string }[] } }).message.author;
    expect(entries).toHaveLength(1);
    expect(entries[0]!.authors).toEqual(authors.map((a) => `${a.family}, ${a.given}`));
    expect(bib).toContain('@article{Herger2025Highthroughput,');
    expect(bib).toContain('  title = {{High-throughput screening of human genetic variants by pooled prime editing}},');
    expect(bib).toContain(`  author = {${authors.map((a) => `${a.family}, ${a.given}`).join(' and ')}},`);
    expect(bib).toContain('  author = {Herger, Michael and Kajba, Christina M. and Buckley, Megan and ');
    for (const line of ['  journal = {Cell Genomics},', '  year = {2025},', '  volume = {5},', '  number = {4},', '  pages = {100814},', '  publisher = {Elsevier BV},', '  doi = {10.1016/j.xgen.2025.100814},', '  url = {https://doi.org/10.1016/j.xgen.2025.100814},']) {
      expect(bib).toContain(line);
    }
    expect(ris.slice(0, 4)).toEqual(['TY  - JOUR', 'TI  - High-throughput screening of human genetic variants by pooled prime editing', 'AU  - Herger, Michael', 'AU  - Kajba, Christina M.']);
    expect(ris.filter((l) => l.startsWith('AU  - '))).toHaveLength(authors.length);
    for (const line of ['JO  - Cell Genomics', 'PY  - 2025', 'VL  - 5', 'IS  - 4', 'SP  - 100814', 'PB  - Elsevier BV', 'DO  - 10.1016/j.xgen.2025.100814']) expect(ris).toContain(line);
    // The model reads the short attributes as before: no citation, no split names.
    const forModel = formatSearchForModel(result);
    expect(forModel).not.toContain('citation');
    expect(forModel).not.toContain('"family"');
    expect(result.records[0]).not.toHaveProperty('citation');
  });
});

describe('PubMed records in the bibliography', () => {
  it('esummary: MEDLINE names as "Family, G. W.", suffix kept, the full journal name, pages written out', async () => {
    const { bib, ris } = await retrieve(
      { '/entrez/eutils/esearch.fcgi': 'ncbi-eutils-esearch-pubmed-retmode-json.json', '/entrez/eutils/esummary.fcgi': 'ncbi-eutils-esummary-pubmed.xml' },
      'pubmed',
      { operation: 'search', query: 'zirconium granuloma' },
    );
    expect(firstRecord(ris)).toEqual([
      'TY  - JOUR',
      'TI  - Zirconium granuloma following treatment of rhus dermatitis.',
      'AU  - LoPresti, P. J.',
      'AU  - Hambrick, G. W., Jr',
      'JO  - Archives of dermatology',
      'J2  - Arch Dermatol',
      'PY  - 1965',
      'VL  - 92',
      'IS  - 2',
      'SP  - 188',
      'EP  - 191',
      'UR  - https://pubmed.ncbi.nlm.nih.gov/11850928/',
      'AN  - PMID:11850928',
      expect.stringMatching(/^N1 {2}- OpenAI4S evidence ev_/),
      'ER  - ',
    ]);
    expect(bib).toContain('  author = {LoPresti, P. J. and Hambrick, Jr, G. W.},');
    expect(bib).toContain('  journal = {Archives of dermatology},\n  shortjournal = {Arch Dermatol},\n  year = {1965},\n  volume = {92},\n  number = {2},\n  pages = {188--191},');
  });

  it('efetch: fore names, the journal issue and pagination, the DOI', async () => {
    const { bib, ris } = await retrieve({ '/entrez/eutils/efetch.fcgi': 'ncbi-eutils-efetch-pubmed.xml' }, 'pubmed', { operation: 'fetch', query: '11748933,11700088' });
    expect(firstRecord(ris).filter((l) => l.startsWith('AU  - ')).slice(0, 2)).toEqual(['AU  - Taddei, A R', 'AU  - Barbato, F']);
    for (const line of ['JO  - Cryobiology', 'PY  - 2001', 'VL  - 42', 'IS  - 4', 'SP  - 244', 'EP  - 255', 'DO  - 10.1006/cryo.2001.2328', 'AU  - De Luca, F', 'JO  - Journal of magnetic resonance (San Diego, Calif. : 1997)', 'J2  - J Magn Reson']) {
      expect(ris).toContain(line);
    }
    expect(bib).toContain('  author = {Casieri, C and Testa, C and Carpinelli, G and Canese, R and Podo, F and De Luca, F},');
    expect(bib).toContain('  pages = {117--123},');
  });
});

describe('Europe PMC records in the bibliography', () => {
  it('split the author string into names, keep journal, year, volume, issue and pages, and a title without the database id', async () => {
    const { bib, ris } = await retrieve({ '/europepmc/webservices/rest/search': 'europepmc-search-ext_id-20516115.json' }, 'europepmc', { operation: 'search', query: 'EXT_ID:20516115 AND SRC:MED' });
    const record = firstRecord(ris);
    expect(record.slice(0, 3)).toEqual(['TY  - JOUR', 'TI  - Comprehensive analysis of missense variations in the BRCT domain of BRCA1 by structural and functional assays.', 'AU  - Lee, M. S.']);
    expect(record.filter((l) => l.startsWith('AU  - '))).toHaveLength(11);
    expect(record).toContain('AU  - Glover, J. N.');
    for (const line of ['JO  - Cancer Res', 'PY  - 2010', 'VL  - 70', 'IS  - 12', 'SP  - 4880', 'EP  - 4890', 'DO  - 10.1158/0008-5472.can-09-4563', 'AN  - PMID:20516115']) expect(record).toContain(line);
    expect(bib).toContain('  author = {Lee, M. S. and Green, R. and Marsillac, S. M. and');
    expect(bib).toContain('  pages = {4880--4890},');
  });
});

describe('arXiv records in the bibliography', () => {
  it('carry the authors as family, given and the year of the first version', async () => {
    const { bib, ris } = await retrieve({ '/api/query': 'arxiv-api-query-id_list-1605.08386.atom.xml' }, 'arxiv', { operation: 'id', query: '1605.08386' });
    expect(firstRecord(ris).slice(0, 5)).toEqual(['TY  - UNPB', 'TI  - Heat-bath random walks with Markov bases', 'AU  - Stanley, Caprice', 'AU  - Windisch, Tobias', 'PY  - 2016']);
    expect(ris).toContain('AN  - arXiv:1605.08386v1');
    expect(bib).toContain('@misc{Stanley2016Heatbath,');
    expect(bib).toContain('  author = {Stanley, Caprice and Windisch, Tobias},\n  year = {2016},');
    expect(bib).toContain('  eprint = {1605.08386v1},\n  archiveprefix = {arXiv},');
  });
});

describe('OpenAlex records in the bibliography', () => {
  it('carry authors, venue, year, pages and publisher', async () => {
    const { ris, bib } = await retrieve({ '/works/doi:10.1016/j.xgen.2025.100814': 'openalex-work-doi-10.1016-j.xgen.2025.100814.json' }, 'openalex', { operation: 'work', query: 'doi:10.1016/j.xgen.2025.100814' });
    const record = firstRecord(ris);
    expect(record.slice(0, 4)).toEqual(['TY  - JOUR', 'TI  - High-throughput screening of human genetic variants by pooled prime editing', 'AU  - Herger, Michael', 'AU  - Kajba, Christina M.']);
    for (const line of ['JO  - Cell Genomics', 'PY  - 2025', 'SP  - 100814', 'PB  - Elsevier BV', 'DO  - 10.1016/j.xgen.2025.100814']) expect(record).toContain(line);
    expect(bib).toContain('  journal = {Cell Genomics},\n  year = {2025},\n  pages = {100814},\n  publisher = {Elsevier BV},');
  });
});

describe('Science Navigator references and PDFs in the bibliography', () => {
  it('a reference keeps its authors as family, given in RIS and BibTeX', async () => {
    const nav = await startNavigatorServer({});
    server = nav;
    const evidence = new MemoryEvidenceStore();
    const tool = navigatorTool({ key: () => 'bohr-bib-key-0123456789', baseUrl: () => nav.base, evidence: () => evidence, historyPauseMs: 1 });
    await tool.execute({ question: 'CRISPR-Cas9 in gene therapy since 2021?' }, { sessionId: 's1', runId: 'r1', workspace: '/tmp', signal: new AbortController().signal, origin: 'tool' as const });
    const entries = bibliographyEntries(evidence.list('s1'));
    const ris = toRis(entries).split('\r\n');
    expect(firstRecord(ris).slice(0, 7)).toEqual([
      'TY  - JOUR',
      'TI  - CRISPR-Cas9 Gene Editing for Sickle Cell Disease and β-Thalassemia',
      'AU  - Frangoul, Haydar',
      'AU  - Altshuler, David',
      'AU  - Cappellini, M. Domenica',
      'AU  - Chen, Yi-Shan',
      'JO  - New England Journal of Medicine',
    ]);
    expect(toBibtex(entries)).toContain('  author = {Frangoul, Haydar and Altshuler, David and Cappellini, M. Domenica and Chen, Yi-Shan},\n  journal = {New England Journal of Medicine},\n  year = {2021},');
  });

  it('a PDF read is titled by its document title (not the pages read) and names its metadata author', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bib-pdf-'));
    try {
      fs.writeFileSync(path.join(workspace, 'paper.pdf'), makePdf(['Abstract: insulin receptor signalling.'], 'INSR knockout', 'Jane Q. Smith; Tom van der Berg'));
      const evidence = new MemoryEvidenceStore();
      await readPdfTool({ evidence: () => evidence }).execute({ path: 'paper.pdf', first_page: 1 }, { sessionId: 's1', runId: 'r1', workspace, signal: new AbortController().signal, origin: 'tool' as const });
      const entries = bibliographyEntries(evidence.list('s1'));
      expect(firstRecord(toRis(entries).split('\r\n')).slice(0, 4)).toEqual(['TY  - GEN', 'TI  - INSR knockout', 'AU  - Smith, Jane Q.', 'AU  - van der Berg, Tom']);
      expect(toBibtex(entries)).toContain('  title = {{INSR knockout}},\n  author = {Smith, Jane Q. and van der Berg, Tom},');
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});
