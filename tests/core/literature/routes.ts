import { createHash } from 'node:crypto';
import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import { openAccessTool } from '../../../src-main/core/capabilities/tools/openAccessTool';
import { readPdfTool } from '../../../src-main/core/capabilities/tools/pdfTools';
import type { BibEntry } from '../../../src-main/core/export/bibliography';
import { recordPageEvidence } from '../../../src-main/core/provenance/evidenceRecords';
import type { MemoryEvidenceStore } from '../../../src-main/core/records/evidenceStore';
import type { Citation } from '../../../src-main/core/science/citation';
import { clientFor } from '../science/helpers';
import { fixture, startFixtureServer } from '../science/fixtureServer';
import { loopback } from '../security/loopback';

/**
 * The routes by which a session reaches one work, each through the code the agent runs:
 * a science search answered from recorded bytes, an open-access download and read_pdf, and a
 * page web_fetch recorded (its evidence as recordPageEvidence writes it).
 */

const ctx = (workspace: string) => ({ sessionId: 's1', runId: 'r1', workspace, signal: new AbortController().signal, origin: 'tool' as const });

/** One science call whose answers are the recorded fixtures (path -> file). */
export async function search(store: MemoryEvidenceStore, routes: Record<string, string>, database: string, input: { operation: string; query: string }) {
  const s = await startFixtureServer(Object.fromEntries(Object.entries(routes).map(([p, f]) => [p, { body: fixture(f) }])));
  try {
    const { client } = clientFor(s.base, { evidence: store });
    return await client.search(database, input, { sessionId: 's1' });
  } finally {
    await s.close();
  }
}

/** fetch_open_access from a loopback mirror serving `pdf`: the evidence id of the download. */
export async function download(store: MemoryEvidenceStore, workspace: string, source: 'arxiv' | 'europepmc', id: string, pdf: Buffer): Promise<{ evidenceId: string; path: string }> {
  const server = await loopback((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/pdf' });
    res.end(pdf);
  });
  const env: Record<string, string> = { OPENAI4S_ARXIV_PDF_BASE_URL: server.origin, OPENAI4S_EUROPEPMC_PDF_BASE_URL: server.origin };
  const out = await openAccessTool({ env: (n) => env[n], evidence: () => store }).execute({ source, id, reason: 'read it' }, ctx(workspace));
  return out.output as { evidenceId: string; path: string };
}

/** read_pdf of a workspace PDF: the evidence id of the pages read. */
export async function readPdf(store: MemoryEvidenceStore, workspace: string, file: string, first = 1, last?: number): Promise<string> {
  const out = await readPdfTool({ evidence: () => store }).execute({ path: file, first_page: first, ...(last ? { last_page: last } : {}) }, ctx(workspace));
  return (out.output as { evidenceId: string }).evidenceId;
}

/** A page web_fetch read at `url` (redirected to `finalUrl`), as its evidence is recorded. */
export function page(store: MemoryEvidenceStore, url: string, options: { finalUrl?: string; contentType?: string; title?: string; citation?: Citation; body?: Buffer } = {}): string {
  return recordPageEvidence(store, {
    sessionId: 's1',
    url,
    finalUrl: options.finalUrl ?? url,
    status: 200,
    retrievedAt: '2026-12-06T09:00:00.000Z',
    // The hash of the bytes read (by default, bytes of its own: each page another body).
    sha256: createHash('sha256').update(options.body ?? `body of ${url}`).digest('hex'),
    byteLength: options.body?.length ?? 1000,
    contentType: options.contentType ?? 'text/html',
    title: options.title ?? '',
    text: 'text',
    ...(options.citation ? { citation: options.citation } : {}),
  }).id;
}

/** The entry a claim citing `evidenceId` points to: the one whose note names the id. */
export function entryCiting(entries: readonly BibEntry[], evidenceId: string): BibEntry[] {
  return entries.filter((e) => e.evidenceIds.includes(evidenceId));
}

export const idOf = (store: MemoryEvidenceStore, database: string, recordId?: string): string =>
  store.list('s1').find((r: EvidenceRecord) => r.envelope.database === database && (recordId === undefined || r.envelope.record_id === recordId))!.id;
