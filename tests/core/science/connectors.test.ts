import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture, startFixtureServer } from './fixtureServer';
import { clientFor } from './helpers';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

let server: Awaited<ReturnType<typeof startFixtureServer>>;
beforeAll(async () => {
  server = await startFixtureServer({
    '/uniprotkb/search': { body: fixture('uniprot-rest-search-braf-reviewed-minimized.json'), headers: { 'content-type': 'application/json', 'x-total-results': '1' } },
    '/uniprotkb/P15056.json': { body: fixture('uniprot-rest-P15056-minimized.json') },
    '/uniprotkb/P01308.fasta': { body: fixture('uniprot-P01308.fasta') },
    '/rcsbsearch/v2/query': { body: fixture('rcsb-search-v2-sequence-polymer_entity.json') },
    '/download/4INS.pdb': { body: fixture('pdb-4INS.pdb') },
    '/download/1A8O.cif': { body: fixture('pdb-1A8O.cif') },
    '/chembl/api/data/mechanism.json': { body: fixture('chembl-mechanism-CHEMBL3137343.json') },
    '/api/query': { body: fixture('arxiv-api-query-search-testing-max10.atom.xml') },
    '/works': { body: fixture('openalex-works-search-filter-title.json') },
    '/works/doi:10.1016/j.xgen.2025.100814': { body: fixture('openalex-work-doi-10.1016-j.xgen.2025.100814.json') },
    '/entrez/eutils/esearch.fcgi': { body: fixture('ncbi-eutils-esearch-pubmed-retmode-json.json') },
    '/entrez/eutils/esummary.fcgi': { body: fixture('ncbi-eutils-esummary-pubmed.xml') },
    '/entrez/eutils/efetch.fcgi': { body: fixture('ncbi-eutils-efetch-pubmed.xml') },
    '/europepmc/webservices/rest/search': { body: fixture('europepmc-search-mlh1-variant.json') },
  });
});
afterAll(() => server.close());

describe('connector normalization on recorded payloads', () => {
  it('uniprot search: accession, names, genes, organism, PDB ids; filters become query clauses', async () => {
    const { client } = clientFor(server.base);
    const r = await client.search('uniprot', { query: 'BRAF', filters: { organism_id: '9606', reviewed: 'true' }, limit: 5 });
    expect(r.records[0]).toMatchObject({ id: 'P15056', title: 'Serine/threonine-protein kinase B-raf', type: 'protein', url: 'https://www.uniprot.org/uniprotkb/P15056/entry' });
    expect(r.records[0]!.attributes).toMatchObject({ uniprot_id: 'BRAF_HUMAN', reviewed: true, genes: ['BRAF'], organism: 'Homo sapiens', taxon_id: 9606, length: 766 });
    expect(r.records[0]!.attributes.pdb_ids).toContain('1UWH');
    expect(r.total).toBe(1);
    const q = server.seen.at(-1)!.query;
    expect(q.get('query')).toBe('((BRAF) AND organism_id:9606) AND reviewed:true');
    expect(q.get('size')).toBe('5');
    expect(server.seen.at(-1)!.headers['user-agent']).toMatch(/^OpenAI4S-Desktop\//);
  });

  it('uniprot entry and FASTA by accession; a bad accession is refused before any request', async () => {
    const { client } = clientFor(server.base);
    const e = await client.search('uniprot', { operation: 'entry', query: 'p15056' });
    expect(e.records[0]!.id).toBe('P15056');
    const f = await client.search('uniprot', { operation: 'fasta', query: 'P01308' });
    expect(f.records[0]).toMatchObject({ id: 'P01308', title: 'Insulin', type: 'sequence' });
    expect(f.records[0]!.attributes).toMatchObject({ uniprot_id: 'INS_HUMAN', organism: 'Homo sapiens', taxon_id: 9606, gene: 'INS', length: 110 });
    expect(String(f.records[0]!.attributes.sequence)).toMatch(/^MALWMRLLPLL/);
    const before = server.seen.length;
    await expect(client.search('uniprot', { operation: 'entry', query: '../etc/passwd' })).rejects.toThrow(/not a UniProtKB accession/);
    expect(server.seen.length).toBe(before);
  });

  it('pdb sequence search posts a bounded query and pages with an offset cursor', async () => {
    const { client } = clientFor(server.base);
    const r = await client.search('pdb', { operation: 'sequence', query: 'VLSPADKTNVKAAWGKVGAHAGEYGAEALERMFLSFPTTKTYFPHF', filters: { return_type: 'polymer_entity' }, limit: 10 });
    expect(r.total).toBe(357);
    // The recorded answer holds all 357 hits; the client returns at most the limit.
    expect(r.records).toHaveLength(10);
    expect(r.records[0]).toMatchObject({ id: '1A00_1', type: 'polymer_entity', url: 'https://www.rcsb.org/structure/1A00' });
    const sent = JSON.parse(server.seen.at(-1)!.body);
    expect(sent.query.service).toBe('sequence');
    expect(sent.return_type).toBe('polymer_entity');
    expect(sent.request_options.paginate).toEqual({ start: 0, rows: 10 });
    expect(server.seen.at(-1)!.method).toBe('POST');
  });

  it('pdb download writes the PDB or mmCIF bytes into the workspace, unchanged', async () => {
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-ws-'));
    const { client } = clientFor(server.base);
    const p = await client.search('pdb', { operation: 'download', query: '4ins', filters: { format: 'pdb' } }, { workspace });
    const written = fs.readFileSync(path.join(workspace, 'structures/4INS.pdb'));
    expect(written.equals(fixture('pdb-4INS.pdb'))).toBe(true);
    expect(p.records[0]!.attributes).toMatchObject({ path: 'structures/4INS.pdb', format: 'pdb', sha256: sha(written) });
    expect(p.records[0]!.title).toMatch(/INSULIN/);
    expect(p.records[0]!.attributes.atom_records).toBeGreaterThan(800);
    const c = await client.search('pdb', { operation: 'download', query: '1A8O' }, { workspace });
    expect(fs.readFileSync(path.join(workspace, 'structures/1A8O.cif')).equals(fixture('pdb-1A8O.cif'))).toBe(true);
    expect(c.records[0]!.title).toMatch(/HIV CAPSID/);
    await expect(client.search('pdb', { operation: 'download', query: '4INS' })).rejects.toThrow(/needs a session workspace/);
  });

  it('chembl mechanisms of a molecule', async () => {
    const { client } = clientFor(server.base);
    const r = await client.search('chembl', { operation: 'mechanism', query: 'CHEMBL3137343' });
    expect(r.records).toHaveLength(1);
    expect(r.records[0]).toMatchObject({ id: 'mec_2300', title: 'Programmed cell death protein 1 inhibitor', type: 'mechanism' });
    expect(r.records[0]!.attributes).toMatchObject({ action_type: 'INHIBITOR', target_chembl_id: 'CHEMBL3307223', max_phase: 4, direct_interaction: true });
    expect(r.next_cursor).toBeNull();
  });

  it('arxiv Atom search: entries, authors, categories, totals and a next cursor', async () => {
    const { client } = clientFor(server.base);
    const r = await client.search('arxiv', { query: 'testing', limit: 10 });
    expect(r.records).toHaveLength(10);
    expect(r.total).toBeGreaterThan(10);
    expect(r.next_cursor).toBe('o:10');
    const first = r.records[0]!;
    expect(first.type).toBe('preprint');
    expect(first.url).toMatch(/^https:\/\/arxiv\.org\/abs\//);
    expect((first.attributes.authors as string[]).length).toBeGreaterThan(0);
    expect(first.attributes.primary_category).toBeTruthy();
    expect(server.seen.at(-1)!.query.get('max_results')).toBe('10');
  });

  it('openalex search pages with the cursor and maps bounded filters; one work by DOI', async () => {
    const { client } = clientFor(server.base);
    const r = await client.search('openalex', { query: 'copper', filters: { title_search: 'native oxide layers', from_publication_date: '2010-01-01' } });
    expect(r.records[0]).toMatchObject({ id: 'W2277923667', url: 'https://doi.org/10.1063/1.4938384', type: 'work' });
    expect(r.records[0]!.attributes).toMatchObject({ doi: '10.1063/1.4938384', venue: 'Journal of Applied Physics' });
    const q = server.seen.at(-1)!.query;
    expect(q.get('cursor')).toBe('*');
    expect(q.get('filter')).toBe('title.search:native oxide layers,from_publication_date:2010-01-01');
    const w = await client.search('openalex', { operation: 'work', query: 'doi:10.1016/j.xgen.2025.100814' });
    expect(w.records[0]!.attributes.doi).toBe('10.1016/j.xgen.2025.100814');
    await expect(client.search('openalex', { query: 'x', filters: { host: 'evil.example' } })).rejects.toThrow(/unknown filter "host"/);
  });

  it('pubmed search = esearch JSON then esummary XML (two provenance envelopes); fetch = efetch abstracts', async () => {
    const { client } = clientFor(server.base);
    const r = await client.search('pubmed', { query: 'APC p.E1317Q', limit: 2 });
    expect(r.total).toBe(40362);
    expect(r.provenance.map((p) => new URL(p.request_url).pathname)).toEqual(['/entrez/eutils/esearch.fcgi', '/entrez/eutils/esummary.fcgi']);
    expect(r.records.map((x) => x.id)).toEqual(['11850928', '11482001']);
    expect(r.records[0]).toMatchObject({ title: 'Zirconium granuloma following treatment of rhus dermatitis.', url: 'https://pubmed.ncbi.nlm.nih.gov/11850928/' });
    expect(r.records[0]!.attributes).toMatchObject({ journal: 'Arch Dermatol', authors: ['LoPresti PJ', 'Hambrick GW Jr'] });
    expect(r.next_cursor).toBe('o:2');
    const f = await client.search('pubmed', { operation: 'fetch', query: '11748933,11700088' });
    expect(f.records[0]!.id).toBe('11748933');
    expect(String(f.records[0]!.attributes.abstract)).toMatch(/cryopreservation/);
  });

  it('europepmc search with cursorMark paging', async () => {
    const { client } = clientFor(server.base);
    const r = await client.search('europepmc', { query: 'MLH1 p.Gly67Glu', limit: 25 });
    expect(r.total).toBe(6);
    expect(r.records).toHaveLength(6);
    expect(r.records[0]!.id).toMatch(/^(MED|PMC|PPR):/);
    expect(r.next_cursor).toBeNull();
    expect(server.seen.at(-1)!.query.get('cursorMark')).toBe('*');
  });

  it('limits, operations and cursors are bounded; a database the model invents is refused', async () => {
    const { client } = clientFor(server.base);
    await expect(client.search('uniprot', { query: 'x', limit: 1000 })).rejects.toThrow(/1 to 100 records/);
    await expect(client.search('uniprot', { operation: 'drop', query: 'x' })).rejects.toThrow(/offers search, entry, fasta/);
    await expect(client.search('arxiv', { query: 'x', cursor: 'zzz' })).rejects.toThrow(/not one this database issued/);
    await expect(client.search('evil.example.com', { query: 'x' })).rejects.toThrow(/unknown database/);
  });
});
