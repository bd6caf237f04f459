import type { EvidenceRecord } from '../../../src-preload/contract/evidence';
import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import type { EvidenceStore, NewEvidence } from '../records/evidenceStore';
import type { Citation } from '../science/citation';

/** A cell execution as evidence (cite it in `computed` claims): what ran, where, and its output head. */
export function recordCellEvidence(store: EvidenceStore, cell: KernelCellResult, code: string): EvidenceRecord {
  return store.record(cellEvidence(cell, code));
}

/** The evidence a finished cell is: its code, its first output or error, and how it ran. */
export function cellEvidence(cell: KernelCellResult, code: string): NewEvidence {
  const head = cell.error ? `${cell.error.ename}: ${cell.error.evalue}` : cell.stdout.trim() || '(no output)';
  return {
    sessionId: cell.sessionId,
    kind: 'cell',
    key: `${cell.generation}/${cell.cellId}`,
    title: `${cell.language === 'r' ? 'R' : 'Python'} cell ${cell.cellNumber} (${cell.status})`,
    snippet: `${code.trim().slice(0, 200)}\n---\n${head}`,
    envelope: {
      language: cell.language,
      generation: cell.generation,
      cell_id: cell.cellId,
      cell_number: cell.cellNumber,
      status: cell.status,
      // The one-line reason a cell did not end ok (what its outputs must be read with).
      error: cell.error ? `${cell.error.ename}: ${cell.error.evalue}`.slice(0, 300) : cell.died ? `kernel died: ${cell.died.reason}`.slice(0, 300) : null,
      usage: cell.usage ?? null,
      sandbox: cell.sandbox,
      figures: cell.displays.filter((d) => d.path).map((d) => d.path),
      truncated: cell.truncated,
    },
  };
}

export interface FetchedPage {
  sessionId: string;
  url: string;
  finalUrl?: string;
  status: number;
  retrievedAt: string;
  sha256: string;
  byteLength: number;
  contentType: string | null;
  title?: string;
  text: string;
  /** What the page's citation meta tags declare (science/pageCitation.ts), for the bibliography. */
  citation?: Citation;
}

/**
 * A fetched web page as evidence (web_fetch): the bytes' hash and time, and the text head;
 * and the page's own citation when it declares one (the model never reads the envelope's).
 */
export function recordPageEvidence(store: EvidenceStore, page: FetchedPage): EvidenceRecord {
  return store.record({
    sessionId: page.sessionId,
    kind: 'page',
    key: `${page.url}|${page.sha256}|${page.retrievedAt}`,
    title: page.title || page.url,
    snippet: page.text.replace(/\s+/g, ' ').trim(),
    envelope: {
      request_url: page.url,
      final_url: page.finalUrl ?? page.url,
      http_status: page.status,
      retrieved_at: page.retrievedAt,
      sha256: page.sha256,
      byte_length: page.byteLength,
      content_type: page.contentType,
      ...(page.citation ? { citation: page.citation } : {}),
    },
  });
}
