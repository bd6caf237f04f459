import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCitedAnswer } from '../../../src-main/core/engine/finalize';
import { base32, EVIDENCE_ID } from '../../../src-main/core/records/ids';
import { sessionEvidenceLookup } from '../../../src-main/core/runner/evidenceLookup';
import { recordPageEvidence } from '../../../src-main/core/provenance/evidenceRecords';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { MemoryEvidenceStore, type EvidenceStore } from '../../../src-main/core/records/evidenceStore';
import { fixture, startFixtureServer } from '../science/fixtureServer';
import { clientFor } from '../science/helpers';

describe('evidence ids', () => {
  it('base32 follows RFC 4648 (lower case, unpadded)', () => {
    expect(base32(Buffer.from('foobar'))).toBe('mzxw6ytboi');
    expect(base32(Buffer.from('f'))).toBe('my');
  });
});

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-ev-'));
const stores: Array<[string, () => EvidenceStore]> = [
  ['memory', () => new MemoryEvidenceStore()],
  ['sqlite (the ledger)', () => openLedger(path.join(dir, `${Math.random()}.sqlite3`)).provenance.evidence],
];

describe.each(stores)('%s evidence store', (_name, make) => {
  it('gives short stable ids: same thing twice is one record; sessions do not share evidence', () => {
    const store = make();
    const input = { sessionId: 's1', kind: 'page' as const, key: 'https://example.org|abc', title: 'Example', snippet: 'x'.repeat(2000), envelope: { a: 1 } };
    const a = store.record(input);
    const b = store.record({ ...input, title: 'changed' });
    expect(a.id).toMatch(EVIDENCE_ID);
    expect(b).toEqual(a);
    expect(store.get('s1', a.id)).toEqual(a); // what record returned is what a read returns
    expect(a.snippet.length).toBeLessThanOrEqual(600);
    expect(store.list('s1')).toHaveLength(1);
    expect(store.get('s1', a.id)!.envelope).toEqual({ a: 1 });
    expect(store.get('s2', a.id)).toBeNull();
    expect(store.missing('s1', [a.id, 'ev_aaaaaaaaaaaaaaaa', a.id])).toEqual(['ev_aaaaaaaaaaaaaaaa']);
    expect(store.missing('s2', [a.id])).toEqual([a.id]);
  });

  it('records a fetched page with its hash and time', () => {
    const store = make();
    const ev = recordPageEvidence(store, { sessionId: 's1', url: 'https://example.org/', status: 200, retrievedAt: '2026-01-01T00:00:00.000Z', sha256: 'f'.repeat(64), byteLength: 10, contentType: 'text/html', text: '  Hello\n\nworld  ' });
    expect(ev.kind).toBe('page');
    expect(ev.snippet).toBe('Hello world');
    expect(ev.envelope).toMatchObject({ http_status: 200, sha256: 'f'.repeat(64), retrieved_at: '2026-01-01T00:00:00.000Z' });
    expect(store.list('s1', { kind: 'page' })).toHaveLength(1);
    expect(store.list('s1', { kind: 'cell' })).toHaveLength(0);
  });
});

describe('the engine refuses observed claims whose evidence does not exist', () => {
  let server: Awaited<ReturnType<typeof startFixtureServer>>;
  beforeAll(async () => {
    server = await startFixtureServer({ '/uniprotkb/search': { body: fixture('uniprot-rest-search-braf-reviewed-minimized.json') } });
  });
  afterAll(() => server.close());

  const answer = (evidence: string[]) => ({
    summary: 'BRAF is P15056.',
    claims: [{ statement: 'Human BRAF is UniProt P15056 (766 aa).', basis: 'observed', evidence, uncertainty: '' }],
    limitations: ['One database consulted.'],
    completion_bullets: ['Looked up BRAF'],
  });

  it('a finalize citing a non-existent id is refused naming the id; one citing a real retrieval is accepted', async () => {
    const { client, evidence } = clientFor(server.base);
    const r = await client.search('uniprot', { query: 'BRAF human' }, { sessionId: 'sess-1' });
    const real = r.records[0]!.evidence_id!;
    expect(real).toMatch(EVIDENCE_ID);
    const stored = evidence.get('sess-1', real)!;
    expect(stored.kind).toBe('retrieval');
    expect(stored.envelope).toMatchObject({ database: 'uniprot', record_id: 'P15056' });
    expect((stored.envelope.provenance as Array<{ sha256: string }>)[0]!.sha256).toBe(r.provenance[0]!.sha256);

    const lookup = sessionEvidenceLookup(evidence, 'sess-1');
    const refused = await checkCitedAnswer(answer(['ev_zzzzzzzzzzzzzzzz']), lookup);
    expect(refused.ok).toBe(false);
    expect(!refused.ok && refused.errors.join('\n')).toContain('"ev_zzzzzzzzzzzzzzzz"');
    const accepted = await checkCitedAnswer(answer([real]), lookup);
    expect(accepted.ok).toBe(true);
    // The same id is not evidence in another session.
    const other = await checkCitedAnswer(answer([real]), sessionEvidenceLookup(evidence, 'sess-2'));
    expect(other.ok).toBe(false);
  });

  it('a cached re-retrieval cites the same evidence id (same bytes, same original time)', async () => {
    const { client } = clientFor(server.base);
    const a = await client.search('uniprot', { query: 'BRAF human' }, { sessionId: 'sess-1' });
    const b = await client.search('uniprot', { query: 'BRAF human' }, { sessionId: 'sess-1' });
    expect(b.provenance[0]!.cached).toBe(true);
    expect(b.records[0]!.evidence_id).toBe(a.records[0]!.evidence_id);
  });
});
