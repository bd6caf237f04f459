import { z } from 'zod';
import { route } from './define';

/** The databases the science connectors serve (DESIGN.md, Science connectors and provenance). */
export type ScienceDatabase = 'uniprot' | 'pdb' | 'pubchem' | 'chembl' | 'arxiv' | 'openalex' | 'pubmed' | 'europepmc' | 'ensembl' | 'crossref' | 'alphafold';

/**
 * Where one HTTP answer came from, attached to every science response. Field names are
 * snake_case on purpose: this object is shown to the model and exported as is.
 */
export interface Provenance {
  database: ScienceDatabase;
  /** The full URL requested (the configured base URL plus the connector's fixed path). */
  request_url: string;
  method: 'GET' | 'POST';
  /** The model-chosen parameters after validation (query, limit, cursor, filters...). */
  parameters: Record<string, unknown>;
  /** When the bytes were fetched from the network; a cached answer keeps the original time. */
  retrieved_at: string;
  http_status: number;
  byte_length: number;
  /** SHA-256 (hex) of the raw response bytes, before any decoding or normalization. */
  sha256: string;
  normalizer_version: string;
  /** True when this answer came from the response cache instead of the network. */
  cached: boolean;
}

/** One normalized record: the same envelope for every database. */
export interface ScienceRecord {
  id: string;
  title: string;
  url: string;
  /** What the record is: protein, structure, compound, mechanism, preprint, work, article, file... */
  type: string;
  attributes: Record<string, unknown>;
  /** The evidence record created for this retrieval (cite it in observed claims). */
  evidence_id?: string;
}

export interface ScienceSearchResult {
  database: ScienceDatabase;
  operation: string;
  query: string;
  records: ScienceRecord[];
  /** Total hits the database reports, when it says. */
  total: number | null;
  /** Pass back as `cursor` for the next page; null when there is none. */
  next_cursor: string | null;
  /** One envelope per HTTP request the answer needed, in order. */
  provenance: Provenance[];
}

export type EvidenceKind = 'retrieval' | 'page' | 'cell' | 'artifact_version';

/** A record the cited answer can point at (`ev_` + base32). */
export interface EvidenceRecord {
  id: string;
  sessionId: string;
  kind: EvidenceKind;
  title: string;
  /** A short excerpt shown next to the claim (bounded length). */
  snippet: string;
  /** The provenance envelope (retrievals, pages) or the cell / artifact facts. */
  envelope: Record<string, unknown>;
  createdAt: string;
}

const sessionId = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,128}$/, 'a session id is 1-128 letters, digits, "_" or "-"');
const evidenceId = z.string().regex(/^ev_[a-z2-7]{16}$/, 'an evidence id is "ev_" followed by 16 base32 letters');

export const evidenceRoutes = {
  'evidence.list': route<EvidenceRecord[]>()(
    z
      .object({
        sessionId,
        kind: z.enum(['retrieval', 'page', 'cell', 'artifact_version']).optional(),
        limit: z.number().int().min(1).max(1000).optional(),
      })
      .strict(),
  ),
  'evidence.get': route<EvidenceRecord>()(z.object({ sessionId, id: evidenceId }).strict()),
  /** The session's literature evidence as BibTeX or RIS (the same as `openai4s bibliography`). */
  'evidence.bibliography': route<{ format: 'bibtex' | 'ris'; text: string; count: number }>()(
    z.object({ sessionId, format: z.enum(['bibtex', 'ris']), includeSearchResults: z.boolean().optional() }).strict(),
  ),
};
