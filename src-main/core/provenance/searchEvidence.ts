import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import type { EvidenceStore } from '../records/evidenceStore';

/** One web search as the evidence store keeps it (see capabilities/tools/webTools.ts, SearchResultsInfo). */
export interface SearchRecordInput {
  sessionId: string;
  query: string;
  backend: string;
  requestUrl: string;
  status: number;
  retrievedAt: string;
  sha256: string;
  byteLength: number;
  results: { rank: number; url: string; title: string; snippet: string }[];
}

/**
 * Each result of a web search as a citable record (kind `retrieval`, database
 * `web_search`): its URL, title and snippet, its rank, which backend answered, and the
 * hash of the exact answer it came in. What a result says is only what its snippet says;
 * reading the page (web_fetch) makes a page record of its own.
 */
export function recordSearchEvidence(store: EvidenceStore, search: SearchRecordInput): EvidenceRecord[] {
  return search.results.map((r) =>
    store.record({
      sessionId: search.sessionId,
      kind: 'retrieval',
      key: ['web_search', search.backend, search.sha256, r.rank, r.url].join('|'),
      title: r.title || r.url,
      snippet: [r.title, r.url, r.snippet].filter(Boolean).join('\n'),
      envelope: {
        database: 'web_search',
        backend: search.backend,
        query: search.query,
        rank: r.rank,
        url: r.url,
        request_url: search.requestUrl,
        http_status: search.status,
        retrieved_at: search.retrievedAt,
        sha256: search.sha256,
        byte_length: search.byteLength,
      },
    }),
  );
}
