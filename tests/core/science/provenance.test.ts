import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { ConnectorError } from '../../../src-main/core/science/errors';
import { fixture, startFixtureServer } from './fixtureServer';
import { clientFor } from './helpers';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const servers: Array<{ close(): Promise<void> }> = [];
async function serve(routes: Parameters<typeof startFixtureServer>[0]) {
  const s = await startFixtureServer(routes);
  servers.push(s);
  return s;
}
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
});

describe('provenance envelope', () => {
  it('records database, URL, parameters, time, status, byte length, sha256 of the raw bytes and normalizer version', async () => {
    const bytes = fixture('uniprot-rest-search-braf-reviewed-minimized.json');
    const s = await serve({ '/uniprotkb/search': { body: bytes } });
    const fixed = new Date('2026-05-01T10:00:00.000Z');
    const { client } = clientFor(s.base, { now: () => fixed });
    const r = await client.search('uniprot', { query: 'BRAF human', limit: 3 });
    expect(r.provenance).toHaveLength(1);
    const p = r.provenance[0]!;
    expect(p).toMatchObject({
      database: 'uniprot',
      method: 'GET',
      parameters: { operation: 'search', query: 'BRAF human', limit: 3 },
      retrieved_at: '2026-05-01T10:00:00.000Z',
      http_status: 200,
      byte_length: bytes.byteLength,
      sha256: sha(bytes),
      normalizer_version: 'uniprot/1',
      cached: false,
    });
    expect(p.request_url.startsWith(`${s.base}/uniprotkb/search?query=BRAF+human&format=json`)).toBe(true);
  });

  it('the hash changes when one byte of the served payload changes', async () => {
    const original = fixture('chembl-mechanism-CHEMBL3137343.json');
    const altered = Buffer.from(original);
    const at = altered.indexOf('INHIBITOR');
    altered[at] = 'X'.charCodeAt(0);
    const a = await serve({ '/chembl/api/data/mechanism.json': { body: original } });
    const b = await serve({ '/chembl/api/data/mechanism.json': { body: altered } });
    const ra = await clientFor(a.base).client.search('chembl', { operation: 'mechanism', query: 'CHEMBL3137343' });
    const rb = await clientFor(b.base).client.search('chembl', { operation: 'mechanism', query: 'CHEMBL3137343' });
    expect(ra.provenance[0]!.sha256).toBe(sha(original));
    expect(rb.provenance[0]!.sha256).toBe(sha(altered));
    expect(ra.provenance[0]!.sha256).not.toBe(rb.provenance[0]!.sha256);
    expect(rb.records[0]!.attributes.action_type).toBe('XNHIBITOR');
  });
});

describe('response cache', () => {
  it('answers the same request within the TTL from cache, marked cached, keeping retrieved_at and hash', async () => {
    const bytes = fixture('europepmc-search-ext_id-20516115.json');
    const s = await serve({ '/europepmc/webservices/rest/search': { body: bytes } });
    let now = new Date('2026-05-01T10:00:00.000Z');
    const { client, cache } = clientFor(s.base, { now: () => now, ttlMs: 60_000 });
    const first = await client.search('europepmc', { query: 'EXT_ID:20516115 AND SRC:MED', limit: 1 });
    now = new Date('2026-05-01T10:00:30.000Z');
    const second = await client.search('europepmc', { query: 'EXT_ID:20516115 AND SRC:MED', limit: 1 });
    expect(s.seen).toHaveLength(1);
    expect(second.provenance[0]).toEqual({ ...first.provenance[0], cached: true });
    expect(second.records).toEqual(first.records);
    // After the TTL the network is asked again and the time is new.
    now = new Date('2026-05-01T10:02:00.000Z');
    const third = await client.search('europepmc', { query: 'EXT_ID:20516115 AND SRC:MED', limit: 1 });
    expect(s.seen).toHaveLength(2);
    expect(third.provenance[0]).toMatchObject({ cached: false, retrieved_at: '2026-05-01T10:02:00.000Z', sha256: sha(bytes) });
    expect(cache.bodyCount).toBe(1);
  });

  it('persists in the ledger: a new client over the same file answers from cache with the original envelope', async () => {
    const bytes = fixture('uniprot-P01308.fasta');
    const s = await serve({ '/uniprotkb/P01308.fasta': { body: bytes } });
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-cache-'));
    const l1 = openLedger(path.join(dir, 'ledger.sqlite3'));
    const a = await clientFor(s.base, { cache: l1.provenance.responses }).client.search('uniprot', { operation: 'fasta', query: 'P01308' });
    l1.close();
    const l2 = openLedger(path.join(dir, 'ledger.sqlite3'));
    const b = await clientFor(s.base, { cache: l2.provenance.responses }).client.search('uniprot', { operation: 'fasta', query: 'P01308' });
    l2.close();
    expect(s.seen).toHaveLength(1);
    expect(b.provenance[0]).toEqual({ ...a.provenance[0], cached: true });
    expect(b.records[0]!.attributes.sequence).toBe(a.records[0]!.attributes.sequence);
  });

  it('never caches an error answer', async () => {
    const s = await serve({ '/uniprotkb/P01308.fasta': [{ status: 400, body: 'bad' }, { body: fixture('uniprot-P01308.fasta') }] });
    const { client } = clientFor(s.base);
    await expect(client.search('uniprot', { operation: 'fasta', query: 'P01308' })).rejects.toThrow(/HTTP 400/);
    const ok = await client.search('uniprot', { operation: 'fasta', query: 'P01308' });
    expect(ok.provenance[0]!.cached).toBe(false);
  });
});

describe('retries and failures', () => {
  it('429 then success: retried after Retry-After, answered with the success', async () => {
    const body = fixture('arxiv-api-query-id_list-1605.08386.atom.xml');
    const s = await serve({ '/api/query': [{ status: 429, headers: { 'retry-after': '2' }, body: 'slow down' }, { body }] });
    const { client, sleeps } = clientFor(s.base);
    const r = await client.search('arxiv', { operation: 'id', query: '1605.08386' });
    expect(s.seen).toHaveLength(2);
    expect(sleeps).toContain(2000);
    expect(r.records[0]).toMatchObject({ id: '1605.08386v1', title: 'Heat-bath random walks with Markov bases' });
    expect(r.provenance[0]).toMatchObject({ http_status: 200, sha256: sha(body) });
  });

  it('503 on every attempt ends in a named HTTP error after the attempts run out', async () => {
    const s = await serve({ '/works': { status: 503, body: 'maintenance' } });
    const { client } = clientFor(s.base);
    const err = await client.search('openalex', { query: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect((err as ConnectorError).status).toBe(503);
    expect((err as Error).message).toMatch(/^openalex: GET .*\/works\?.* answered HTTP 503: maintenance/);
    expect(s.seen).toHaveLength(3);
  });

  it('malformed JSON is a clear connector error naming the URL, not a crash', async () => {
    const truncated = fixture('openalex-works-search-filter-title.json').subarray(0, 500);
    const s = await serve({ '/works': { body: truncated } });
    const err = await clientFor(s.base).client.search('openalex', { query: 'x' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConnectorError);
    expect((err as ConnectorError).code).toBe('malformed_response');
    expect((err as Error).message).toMatch(/answered invalid JSON/);
    expect((err as Error).message).toContain(sha(truncated));
  });

  it('malformed XML is a clear connector error with the offset', async () => {
    const broken = fixture('ncbi-eutils-efetch-pubmed.xml').toString('utf8').replace('</ArticleTitle>', '</ArticleTitel>');
    const s = await serve({ '/entrez/eutils/efetch.fcgi': { body: broken } });
    const err = await clientFor(s.base).client.search('pubmed', { operation: 'fetch', query: '11748933' }).catch((e: unknown) => e);
    expect((err as ConnectorError).code).toBe('malformed_response');
    expect((err as Error).message).toMatch(/malformed XML \(closing tag <\/ArticleTitel> does not match <ArticleTitle> at offset \d+\)/);
  });

  it('valid JSON of the wrong shape is a malformed_response, not a TypeError', async () => {
    const s = await serve({ '/uniprotkb/search': { body: fixture('chembl-mechanism-CHEMBL3137343.json') } });
    const err = await clientFor(s.base).client.search('uniprot', { query: 'x' }).catch((e: unknown) => e);
    expect((err as ConnectorError).code).toBe('malformed_response');
    expect((err as Error).message).toMatch(/unexpected shape \(no "results" array\)/);
  });

  it('an empty arXiv feed is zero records, not an error', async () => {
    const s = await serve({ '/api/query': { body: fixture('arxiv-api-query-id_list-0000.0000-empty-or-error.atom.xml') } });
    const r = await clientFor(s.base).client.search('arxiv', { operation: 'id', query: '0000.0000' });
    expect(r.records).toEqual([]);
    expect(r.total).toBe(0);
  });
});
