import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import { runCli } from '../../../src-main/cli/main';
import { bibliographyEntries, toBibtex, toRis } from '../../../src-main/core/export/bibliography';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import type { NewEvidence } from '../../../src-main/core/records/evidenceStore';

const NAV_REF: Omit<NewEvidence, 'sessionId'> = {
  kind: 'retrieval',
  key: 'nav|ref|1',
  title: 'CRISPR-Cas9 Gene Editing for Sickle Cell Disease and β-Thalassemia',
  snippet: '',
  envelope: { database: 'bohrium_navigator', role: 'reference', type: 'paper', authors: ['Haydar Frangoul', 'David Altshuler'], journal: 'New England Journal of Medicine', year: 2021, doi: '10.1056/NEJMoa2031054', url: 'https://doi.org/10.1056/NEJMoa2031054', retrieved_at: '2026-12-01T08:00:00.000Z' },
};
const NAV_ALL: Omit<NewEvidence, 'sessionId'> = { ...NAV_REF, key: 'nav|all|3', title: 'Search-and-replace genome editing without double-strand breaks or donor DNA', envelope: { database: 'bohrium_navigator', role: 'search_result', type: 'paper', authors: ['Andrew V. Anzalone'], journal: 'Nature', year: 2019, doi: '10.1038/s41586-019-1711-4' } };
const PUBMED: Omit<NewEvidence, 'sessionId'> = { kind: 'retrieval', key: 'pubmed|11748933', title: 'PubMed 11748933: Is cryopreservation a homogeneous process? 50% & more_', snippet: '', envelope: { database: 'pubmed', record_id: '11748933', url: 'https://pubmed.ncbi.nlm.nih.gov/11748933/' } };
const UNIPROT: Omit<NewEvidence, 'sessionId'> = { kind: 'retrieval', key: 'uniprot|P01308', title: 'UniProt P01308: Insulin', snippet: '', envelope: { database: 'uniprot', record_id: 'P01308', url: 'https://www.uniprot.org/uniprotkb/P01308/entry' } };
const CELL: Omit<NewEvidence, 'sessionId'> = { kind: 'cell', key: 'g/c1', title: 'Python cell 1 (ok)', snippet: '', envelope: {} };

const rec = (e: Omit<NewEvidence, 'sessionId'>, id: string): EvidenceRecord => ({ id, sessionId: 's', kind: e.kind, title: e.title, snippet: '', envelope: e.envelope, createdAt: '2026-12-01T08:00:00.000Z' });

describe('bibliography of literature evidence', () => {
  const records = [rec(NAV_REF, 'ev_aaaaaaaaaaaaaaaa'), rec(NAV_ALL, 'ev_bbbbbbbbbbbbbbbb'), rec(PUBMED, 'ev_cccccccccccccccc'), rec(UNIPROT, 'ev_dddddddddddddddd'), rec(CELL, 'ev_eeeeeeeeeeeeeeee'), rec(NAV_REF, 'ev_ffffffffffffffff')];

  it('keeps literature only (references, literature databases), once per DOI; search results only when asked', () => {
    expect(bibliographyEntries(records).map((e) => e.evidenceId)).toEqual(['ev_aaaaaaaaaaaaaaaa', 'ev_cccccccccccccccc']);
    expect(bibliographyEntries(records, { includeSearchResults: true }).map((e) => e.evidenceId)).toEqual(['ev_aaaaaaaaaaaaaaaa', 'ev_bbbbbbbbbbbbbbbb', 'ev_cccccccccccccccc']);
  });

  it('writes BibTeX with DOIs, escaped special characters and the evidence id', () => {
    const bib = toBibtex(bibliographyEntries(records));
    expect(bib).toBe(
      [
        '@article{Frangoul2021CRISPRCas9,',
        '  title = {{CRISPR-Cas9 Gene Editing for Sickle Cell Disease and β-Thalassemia}},',
        '  author = {Haydar Frangoul and David Altshuler},',
        '  journal = {New England Journal of Medicine},',
        '  year = {2021},',
        '  doi = {10.1056/NEJMoa2031054},',
        '  url = {https://doi.org/10.1056/NEJMoa2031054},',
        // The ids' underscores escaped: LaTeX stops at a bare "_" outside math. The reference
        // was recorded twice: a claim citing either record finds this entry.
        '  note = {OpenAI4S evidence ev\\_aaaaaaaaaaaaaaaa, ev\\_ffffffffffffffff}',
        '}',
        '',
        '@article{Iscryopreservation,',
        '  title = {{Is cryopreservation a homogeneous process? 50\\% \\& more\\_}},',
        '  url = {https://pubmed.ncbi.nlm.nih.gov/11748933/},',
        '  pmid = {11748933},',
        '  note = {OpenAI4S evidence ev\\_cccccccccccccccc}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('writes RIS records, one tag a line, each ended by ER', () => {
    const ris = toRis(bibliographyEntries(records));
    expect(ris.split('\r\n').slice(0, 10)).toEqual([
      'TY  - JOUR',
      'TI  - CRISPR-Cas9 Gene Editing for Sickle Cell Disease and β-Thalassemia',
      'AU  - Haydar Frangoul',
      'AU  - David Altshuler',
      'JO  - New England Journal of Medicine',
      'PY  - 2021',
      'DO  - 10.1056/NEJMoa2031054',
      'UR  - https://doi.org/10.1056/NEJMoa2031054',
      'N1  - OpenAI4S evidence ev_aaaaaaaaaaaaaaaa, ev_ffffffffffffffff',
      'ER  - ',
    ]);
    expect(ris.match(/^ER {2}- $/gm)).toHaveLength(2);
    expect(ris).toContain('AN  - PMID:11748933');
  });
});

describe('bibliography fields', () => {
  // A Crossref and a Europe PMC record as they were stored before records kept their citation.
  const OLD_CROSSREF = rec(
    { kind: 'retrieval', key: 'crossref|old', title: 'Crossref 10.1016/j.xgen.2025.100814: High-throughput screening of human genetic variants by pooled prime editing', snippet: '', envelope: { database: 'crossref', operation: 'work', record_id: '10.1016/j.xgen.2025.100814', url: 'https://doi.org/10.1016/j.xgen.2025.100814', type: 'journal-article', provenance: [] } },
    'ev_gggggggggggggggg',
  );
  const OLD_EPMC = rec(
    { kind: 'retrieval', key: 'epmc|old', title: 'Europe PMC MED:20516115: Comprehensive analysis of missense variations', snippet: '', envelope: { database: 'europepmc', operation: 'search', record_id: 'MED:20516115', url: 'https://europepmc.org/article/MED/20516115', type: 'article', provenance: [] } },
    'ev_hhhhhhhhhhhhhhhh',
  );

  it('exports a record stored without a citation as before: title, DOI and URL', () => {
    expect(toBibtex(bibliographyEntries([OLD_CROSSREF]))).toBe(
      [
        '@article{HighthroughputHighthroughput,',
        '  title = {{High-throughput screening of human genetic variants by pooled prime editing}},',
        '  doi = {10.1016/j.xgen.2025.100814},',
        '  url = {https://doi.org/10.1016/j.xgen.2025.100814},',
        '  note = {OpenAI4S evidence ev\\_gggggggggggggggg}',
        '}',
        '',
      ].join('\n'),
    );
  });

  it('takes the database and id off a title even when the id holds a colon (Europe PMC), and reads its PMID', () => {
    const [entry] = bibliographyEntries([OLD_EPMC]);
    expect(entry).toMatchObject({ title: 'Comprehensive analysis of missense variations', pmid: '20516115' });
  });

  it('escapes names and fields: organisations braced, a suffix in BibTeX order, "and" inside a name, TeX specials, verbatim DOI and URL, one RIS line a value', () => {
    const record = rec(
      {
        kind: 'retrieval',
        key: 'crossref|esc',
        title: 'Crossref 10.1000/a_b{1}: x',
        snippet: '',
        envelope: {
          database: 'crossref',
          record_id: '10.1000/a_b{1}',
          url: 'https://example.org/a b',
          citation: {
            title: 'Na$^+$ & K{+}\nchannels_50%',
            authors: [{ family: 'King', given: 'Martin Luther', suffix: 'Jr' }, { literal: 'Cancer Genome Atlas Research Network' }, { family: 'Anderson and Sons', given: 'Zoë' }],
            author_count: 40,
            journal: 'Nucleic Acids Res. & Co',
            year: 2020,
            pages: '12-19',
            doi: '10.1000/a_b{1}',
          },
        },
      },
      'ev_iiiiiiiiiiiiiiii',
    );
    const bib = toBibtex(bibliographyEntries([record]));
    expect(bib).toContain('  title = {{Na\\$\\textasciicircum{}+\\$ \\& K\\{+\\} channels\\_50\\%}},');
    expect(bib).toContain('  author = {King, Jr, Martin Luther and {Cancer Genome Atlas Research Network} and Anderson {and} Sons, Zoë and others},');
    expect(bib).toContain('  journal = {Nucleic Acids Res. \\& Co},');
    expect(bib).toContain('  pages = {12--19},');
    expect(bib).toContain('  doi = {10.1000/a_b%7B1%7D},');
    expect(bib).toContain('  url = {https://example.org/a%20b},');
    const ris = toRis(bibliographyEntries([record])).split('\r\n');
    expect(ris).toContain('TI  - Na$^+$ & K{+} channels_50%');
    expect(ris.filter((l) => l.startsWith('AU  - '))).toEqual(['AU  - King, Martin Luther, Jr', 'AU  - Cancer Genome Atlas Research Network', 'AU  - Anderson and Sons, Zoë']);
    expect(ris).toEqual(expect.arrayContaining(['SP  - 12', 'EP  - 19', 'DO  - 10.1000/a_b{1}']));
    expect(ris.every((l) => l === '' || /^[A-Z][A-Z0-9] {2}- /.test(l))).toBe(true);
  });

  it('lists a work recorded twice once, with the fields the later record adds (a Navigator reference, then Crossref)', () => {
    const crossref = rec(
      { kind: 'retrieval', key: 'crossref|nejm', title: 'Crossref 10.1056/NEJMoa2031054: CRISPR-Cas9 Gene Editing', snippet: '', envelope: { database: 'crossref', record_id: '10.1056/NEJMoa2031054', url: 'https://doi.org/10.1056/NEJMoa2031054', citation: { volume: '384', issue: '3', pages: '252-260', publisher: 'Massachusetts Medical Society', doi: '10.1056/NEJMoa2031054' } } },
      'ev_jjjjjjjjjjjjjjjj',
    );
    const entries = bibliographyEntries([rec(NAV_REF, 'ev_aaaaaaaaaaaaaaaa'), crossref]);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ evidenceId: 'ev_aaaaaaaaaaaaaaaa', authors: ['Haydar Frangoul', 'David Altshuler'], volume: '384', issue: '3', pages: '252-260', publisher: 'Massachusetts Medical Society' });
  });
});

describe('openai4s bibliography', () => {
  let dir: string;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bib-'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  function seed(): string {
    fs.mkdirSync(path.join(dir, 'data'));
    const ledger = openLedger(path.join(dir, 'data', 'ledger.sqlite3'));
    try {
      const session = ledger.createSession('CRISPR');
      for (const e of [NAV_REF, PUBMED, UNIPROT, CELL]) ledger.provenance.evidence.record({ ...e, sessionId: session.id });
      return session.id;
    } finally {
      ledger.close();
    }
  }

  it('prints BibTeX, writes RIS to a file, reports with --json, and names a bad format', async () => {
    const sessionId = seed();
    const env = { ...process.env, OPENAI4S_DATA_DIR: path.join(dir, 'data'), OPENAI4S_KERNEL_PREWARM: '0' };
    let out = '';
    let err = '';
    const io = { out: (t: string) => (out += `${t}\n`), err: (t: string) => (err += `${t}\n`), write: (t: string) => (out += t) };
    expect(await runCli(['bibliography', sessionId], io, env)).toBe(0);
    expect(out).toContain('@article{Frangoul2021CRISPRCas9,');
    expect(out).toContain('doi = {10.1056/NEJMoa2031054}');
    expect(out).not.toContain('P01308');

    out = '';
    // Outside the data root: the CLI never writes into the app’s data folder.
    const file = path.join(dir, 'refs.ris');
    expect(await runCli(['bibliography', sessionId, '--format', 'ris', '--out', file, '--json'], io, env)).toBe(0);
    const report = JSON.parse(out) as { count: number; file: string; format: string };
    expect(report).toMatchObject({ count: 2, file, format: 'ris' });
    expect(fs.readFileSync(file, 'utf8')).toContain('DO  - 10.1056/NEJMoa2031054');

    expect(await runCli(['bibliography', sessionId, '--format', 'endnote'], io, env)).toBe(2);
    expect(err).toMatch(/--format endnote is not one of bibtex, ris/);
  });
});
