import type { EvidenceKind, EvidenceRecord } from '../../../src-preload/contract/evidence';
import { stableId } from './ids';

export interface NewEvidence {
  sessionId: string;
  kind: EvidenceKind;
  /**
   * What makes this evidence itself (e.g. the response hash, URL and record id of a
   * retrieval; a version id). The id is derived from it, so recording the same thing
   * twice in a session gives the same id and one row.
   */
  key: string;
  title: string;
  snippet: string;
  envelope: Record<string, unknown>;
  createdAt?: string;
}

export interface EvidenceListOptions {
  kind?: EvidenceKind;
  limit?: number;
}

/** Evidence of a session. The SQLite implementation persists; the memory one serves tests and the CLI. */
export interface EvidenceStore {
  record(input: NewEvidence): EvidenceRecord;
  get(sessionId: string, id: string): EvidenceRecord | null;
  list(sessionId: string, options?: EvidenceListOptions): EvidenceRecord[];
  /** The ids among `ids` that name no evidence of this session (order kept, duplicates once). */
  missing(sessionId: string, ids: readonly string[]): string[];
}

export const SNIPPET_MAX = 600;

export function evidenceIdFor(sessionId: string, kind: EvidenceKind, key: string): string {
  return stableId('ev_', sessionId, kind, key);
}

export function toRecord(input: NewEvidence, now: () => Date = () => new Date()): EvidenceRecord {
  const snippet = input.snippet.length > SNIPPET_MAX ? `${input.snippet.slice(0, SNIPPET_MAX - 1)}…` : input.snippet;
  return {
    id: evidenceIdFor(input.sessionId, input.kind, input.key),
    sessionId: input.sessionId,
    kind: input.kind,
    title: input.title.slice(0, 300),
    snippet,
    envelope: input.envelope,
    createdAt: input.createdAt ?? now().toISOString(),
  };
}

export class MemoryEvidenceStore implements EvidenceStore {
  private bySession = new Map<string, Map<string, EvidenceRecord>>();

  record(input: NewEvidence): EvidenceRecord {
    const rec = toRecord(input);
    let m = this.bySession.get(rec.sessionId);
    if (!m) this.bySession.set(rec.sessionId, (m = new Map()));
    const existing = m.get(rec.id);
    if (existing) return existing;
    m.set(rec.id, rec);
    return rec;
  }

  get(sessionId: string, id: string): EvidenceRecord | null {
    return this.bySession.get(sessionId)?.get(id) ?? null;
  }

  list(sessionId: string, options: EvidenceListOptions = {}): EvidenceRecord[] {
    const all = [...(this.bySession.get(sessionId)?.values() ?? [])].filter((r) => !options.kind || r.kind === options.kind);
    return all.slice(0, options.limit ?? all.length);
  }

  missing(sessionId: string, ids: readonly string[]): string[] {
    const m = this.bySession.get(sessionId);
    return [...new Set(ids)].filter((id) => !m?.has(id));
  }
}
