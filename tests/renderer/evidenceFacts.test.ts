import { describe, expect, it } from 'vitest';
import { evidenceFacts } from '../../src-renderer/src/components/panel/evidenceFacts';
import type { EvidenceRecord } from '../../src-preload/contract/evidence';

const base = { sessionId: 's1', snippet: '', createdAt: '2026-01-02T03:04:05.000Z' };

// Envelopes shaped as the core writes them (science/client.ts, provenance/evidenceRecords.ts, provenance/artifactService.ts).
const retrieval: EvidenceRecord = {
  ...base,
  id: 'ev_aaaaaaaaaaaaaaaa',
  kind: 'retrieval',
  title: 'UniProt P01308: Insulin',
  envelope: {
    database: 'uniprot',
    operation: 'fasta',
    record_id: 'P01308',
    url: 'https://www.uniprot.org/uniprotkb/P01308/entry',
    type: 'protein',
    provenance: [
      {
        database: 'uniprot',
        request_url: 'https://rest.uniprot.org/uniprotkb/P01308.fasta',
        method: 'GET',
        parameters: { query: 'P01308' },
        retrieved_at: '2026-01-02T03:04:00.000Z',
        http_status: 200,
        byte_length: 182,
        sha256: 'a'.repeat(64),
        normalizer_version: '1',
        cached: false,
      },
      {
        database: 'uniprot',
        request_url: 'https://rest.uniprot.org/uniprotkb/search',
        method: 'POST',
        parameters: {},
        retrieved_at: '2026-01-02T03:04:01.000Z',
        http_status: 200,
        byte_length: 10,
        sha256: 'b'.repeat(64),
        normalizer_version: '1',
        cached: true,
      },
    ],
  },
};

describe('evidenceFacts', () => {
  it('reads a retrieval: database, record page, and every request with time and hash', () => {
    const f = evidenceFacts(retrieval);
    expect(f.kind).toBe('retrieval');
    expect(f.source).toBe('uniprot');
    expect(f.link).toBe('https://www.uniprot.org/uniprotkb/P01308/entry');
    expect(f.requests).toEqual([
      {
        url: 'https://rest.uniprot.org/uniprotkb/P01308.fasta',
        method: 'GET',
        status: 200,
        bytes: 182,
        retrievedAt: '2026-01-02T03:04:00.000Z',
        sha256: 'a'.repeat(64),
        cached: false,
      },
      expect.objectContaining({ method: 'POST', sha256: 'b'.repeat(64), cached: true }),
    ]);
    expect(f.path).toBeNull();
  });

  it('reads a fetched page as one request, its host as the source', () => {
    const f = evidenceFacts({
      ...base,
      id: 'ev_bbbbbbbbbbbbbbbb',
      kind: 'page',
      title: 'Insulin',
      envelope: {
        request_url: 'https://example.org/insulin',
        final_url: 'https://www.example.org/insulin',
        http_status: 200,
        retrieved_at: '2026-01-02T03:04:00.000Z',
        sha256: 'c'.repeat(64),
        byte_length: 5,
        content_type: 'text/html',
      },
    });
    expect(f.source).toBe('example.org');
    expect(f.link).toBe('https://www.example.org/insulin');
    expect(f.requests.map((r) => [r.url, r.sha256])).toEqual([
      ['https://example.org/insulin', 'c'.repeat(64)],
    ]);
  });

  it('reads a cell (generation, status) and an artifact version (path, hash)', () => {
    const cell = evidenceFacts({
      ...base,
      id: 'ev_cccccccccccccccc',
      kind: 'cell',
      title: 'Python cell 1 (ok)',
      envelope: { language: 'python', generation: 'gen-1234abcd', status: 'ok', figures: [] },
    });
    expect([cell.generation, cell.status, cell.requests, cell.sha256]).toEqual([
      'gen-1234abcd',
      'ok',
      [],
      null,
    ]);
    expect(cell.createdAt).toBe(base.createdAt);
    const artifact = evidenceFacts({
      ...base,
      id: 'ev_dddddddddddddddd',
      kind: 'artifact_version',
      title: 'structures/4INS.pdb v1',
      envelope: { path: 'structures/4INS.pdb', sha256: 'd'.repeat(64), size: 3, mime: 'chemical/x-pdb' },
    });
    expect([artifact.path, artifact.sha256]).toEqual(['structures/4INS.pdb', 'd'.repeat(64)]);
  });

  it('tolerates a missing record and malformed envelopes', () => {
    expect(evidenceFacts(undefined)).toMatchObject({ kind: null, source: null, requests: [] });
    const odd = evidenceFacts({
      ...base,
      id: 'ev_eeeeeeeeeeeeeeee',
      kind: 'page',
      title: 'x',
      envelope: { request_url: 'not a url', provenance: 'nope' },
    });
    expect(odd.source).toBeNull();
    expect(odd.requests.map((r) => r.url)).toEqual(['not a url']);
  });
});
