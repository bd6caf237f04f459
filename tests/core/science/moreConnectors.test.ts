import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { fixture, startFixtureServer } from './fixtureServer';
import { clientFor } from './helpers';

// Issue 21, item 4: Ensembl, Crossref and AlphaFold DB, each against a real recorded answer
// (origins in tests/fixtures/science-apis/SOURCES.md), served from 127.0.0.1.

let server: Awaited<ReturnType<typeof startFixtureServer>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

describe('Ensembl', () => {
  it('looks up a gene by stable id (expanded) and records it as evidence', async () => {
    server = await startFixtureServer({ '/lookup/id/ENSG00000157764': { body: fixture('ensembl-lookup-id-ENSG00000157764.json'), headers: { 'content-type': 'application/json' } } });
    const { client, evidence } = clientFor(server.base);
    const r = await client.search('ensembl', { operation: 'lookup', query: 'ENSG00000157764' }, { sessionId: 's1' });
    expect(server.seen[0]!.query.get('expand')).toBe('1');
    expect(r.records[0]).toMatchObject({
      id: 'ENSG00000157764',
      title: 'BRAF: B-Raf proto-oncogene, serine/threonine kinase',
      url: 'https://www.ensembl.org/id/ENSG00000157764',
      type: 'gene',
      attributes: { species: 'homo_sapiens', biotype: 'protein_coding', assembly: 'GRCh38', location: '7:140719327-140924929:-1', canonical_transcript: 'ENST00000646891.2', version: 14 },
    });
    expect(evidence.list('s1')[0]!.title).toBe('Ensembl ENSG00000157764: BRAF: B-Raf proto-oncogene, serine/threonine kinase');
  });

  it('looks up a transcript with its exons and translation', async () => {
    server = await startFixtureServer({ '/lookup/id/ENST00000237014': { body: fixture('ensembl-lookup-id-ENST00000237014-expand.json') } });
    const { client } = clientFor(server.base);
    const r = await client.search('ensembl', { operation: 'lookup', query: 'ENST00000237014.8' });
    expect(r.records[0]).toMatchObject({
      id: 'ENST00000237014',
      type: 'transcript',
      attributes: { name: 'TTR-201', parent: 'ENSG00000118271', is_canonical: true, length: 616, exon_count: 4, translation: 'ENSP00000237014 (147 aa)', location: '18:31591877-31598821:1' },
    });
    expect((r.records[0]!.attributes.exons as string[])[0]).toBe('ENSE00001836564 18:31591877-31591971:1');
  });

  it('refuses what is not a stable id, and names a symbol Ensembl does not know', async () => {
    server = await startFixtureServer({ '/lookup/symbol/homo_sapiens/NOTAGENE': { status: 400, body: '{"error":"No valid lookup found for symbol NOTAGENE"}' } });
    const { client } = clientFor(server.base);
    await expect(client.search('ensembl', { operation: 'lookup', query: 'BRAF' })).rejects.toThrow(/"BRAF" is not an Ensembl stable id.*use operation "symbol"/);
    await expect(client.search('ensembl', { operation: 'symbol', query: 'NOTAGENE' })).rejects.toThrow(/Ensembl has no gene "NOTAGENE" in homo_sapiens \(No valid lookup found for symbol NOTAGENE\)/);
  });
});

describe('Crossref', () => {
  it('reads a DOI (given as a doi.org URL) into authors, journal, year and pages', async () => {
    server = await startFixtureServer({ '/works/10.1016/j.xgen.2025.100814': { body: fixture('crossref-work-10.1016-j.xgen.2025.100814.json') } });
    const { client } = clientFor(server.base);
    const r = await client.search('crossref', { operation: 'work', query: 'https://doi.org/10.1016/j.xgen.2025.100814' });
    const rec = r.records[0]!;
    expect(rec).toMatchObject({
      id: '10.1016/j.xgen.2025.100814',
      title: 'High-throughput screening of human genetic variants by pooled prime editing',
      url: 'https://doi.org/10.1016/j.xgen.2025.100814',
      type: 'journal-article',
      attributes: { journal: 'Cell Genomics', year: 2025, publisher: 'Elsevier BV', volume: '5', issue: '4', page: '100814', license: 'http://creativecommons.org/licenses/by/4.0/' },
    });
    expect((rec.attributes.authors as string[]).slice(0, 1)).toEqual([expect.stringMatching(/Herger$/)]);
  });

  it('refuses what is not a DOI', async () => {
    const { client } = clientFor('http://127.0.0.1:9');
    await expect(client.search('crossref', { operation: 'work', query: 'prime editing' })).rejects.toThrow(/is not a DOI/);
  });
});

describe('AlphaFold DB', () => {
  it('gives the prediction of a UniProt accession with its confidence', async () => {
    server = await startFixtureServer({ '/api/prediction/P50613': { body: fixture('alphafold-api-prediction-P50613.json') } });
    const { client } = clientFor(server.base);
    const r = await client.search('alphafold', { operation: 'prediction', query: 'p50613' });
    expect(r.records[0]).toMatchObject({
      id: 'AF-P50613-F1',
      title: 'Cyclin-dependent kinase 7 (Homo sapiens)',
      url: 'https://alphafold.ebi.ac.uk/entry/P50613',
      type: 'predicted_structure',
      attributes: { gene: 'CDK7', mean_plddt: 82, fraction_plddt_very_high: 0.618, model_version: 6, residues: '1-346', cif_url: 'https://alphafold.ebi.ac.uk/files/AF-P50613-F1-model_v6.cif' },
    });
  });

  it('downloads the model from the configured host into the workspace, and names a missing prediction', async () => {
    const cif = 'data_AF-P50613-F1\n_struct.title "Cyclin-dependent kinase 7"\nATOM 1 N N . MET A 1 1 ? 1.0 2.0 3.0 1.00 82.0 ? 1 MET A N 1\n';
    server = await startFixtureServer({
      '/api/prediction/P50613': { body: fixture('alphafold-api-prediction-P50613.json') },
      '/files/AF-P50613-F1-model_v6.cif': { body: cif },
      '/api/prediction/Q00000': { status: 404, body: '{"detail":"Not Found"}' },
    });
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-af-'));
    try {
      const { client } = clientFor(server.base);
      const r = await client.search('alphafold', { operation: 'download', query: 'P50613' }, { sessionId: 's1', workspace });
      expect(r.records[0]!.attributes).toMatchObject({ path: 'structures/AF-P50613-F1-model_v6.cif', format: 'cif', bytes: Buffer.byteLength(cif) });
      expect(fs.readFileSync(path.join(workspace, 'structures/AF-P50613-F1-model_v6.cif'), 'utf8')).toBe(cif);
      await expect(client.search('alphafold', { operation: 'prediction', query: 'Q00000' })).rejects.toThrow(/AlphaFold DB has no prediction for Q00000/);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });

  it('asks its own host for nothing but a model file: an answer naming another file or host fetches nothing', async () => {
    const hostile = [{ entryId: 'AF-P50613-F1', uniprotAccession: 'P50613', cifUrl: 'http://169.254.169.254/latest/meta-data/iam' }];
    server = await startFixtureServer({ '/api/prediction/P50613': { body: JSON.stringify(hostile) } });
    const workspace = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-af-'));
    try {
      const { client } = clientFor(server.base);
      await expect(client.search('alphafold', { operation: 'download', query: 'P50613' }, { sessionId: 's1', workspace })).rejects.toThrow(/unexpected model file name "iam"/);
      expect(server.seen.map((s) => s.path)).toEqual(['/api/prediction/P50613']);
      expect(fs.readdirSync(workspace)).toEqual([]);
    } finally {
      fs.rmSync(workspace, { recursive: true, force: true });
    }
  });
});

describe('malformed answers from the new sources', () => {
  it.each([
    ['crossref', 'work', '10.1016/j.xgen.2025.100814', '/works/10.1016/j.xgen.2025.100814', '{"status":"ok","message":null}'],
    ['crossref', 'search', 'prime editing', '/works', '{"message":{"items":"none"}}'],
    ['ensembl', 'lookup', 'ENSG00000157764', '/lookup/id/ENSG00000157764', '[]'],
    ['alphafold', 'prediction', 'P50613', '/api/prediction/P50613', '{"not":"a list"}'],
    ['alphafold', 'prediction', 'P50613', '/api/prediction/P50613', 'not json at all'],
  ])('%s %s: a malformed answer is a named error, never an empty success', async (db, operation, query, route, body) => {
    server = await startFixtureServer({ [route]: { body, headers: { 'content-type': 'application/json' } } });
    const { client, evidence } = clientFor(server.base);
    await expect(client.search(db, { operation, query }, { sessionId: 's1' })).rejects.toMatchObject({ code: expect.stringMatching(/malformed_response|not_found/) });
    expect(evidence.list('s1')).toEqual([]);
  });
});
