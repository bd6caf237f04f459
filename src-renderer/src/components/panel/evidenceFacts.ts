import type { EvidenceKind, EvidenceRecord } from '../../../../src-preload/contract/evidence';
import { isRecord } from '../parts/format';

/** One HTTP answer behind a record: where, when, what came back, and the hash of its raw bytes. */
export interface RequestFact {
  url: string;
  method: string | null;
  status: number | null;
  bytes: number | null;
  retrievedAt: string | null;
  sha256: string | null;
  cached: boolean;
}

/** What the Evidence tab shows of a record, whatever its kind. */
export interface EvidenceFacts {
  kind: EvidenceKind | null;
  /** The database (retrievals) or another short source label. */
  source: string | null;
  /** The record's own page (a UniProt entry, a PDB entry, a fetched page's final URL). */
  link: string | null;
  requests: RequestFact[];
  /** Cells: the kernel generation and the cell's status. */
  generation: string | null;
  status: string | null;
  /** Artifact versions: the workspace path and the version's hash. */
  path: string | null;
  sha256: string | null;
  /** When the record was made (the ledger's time). */
  createdAt: string | null;
}

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : null);
const hostOf = (url: string): string | null => {
  try {
    return new URL(url).host;
  } catch {
    return null;
  }
};
const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

function request(env: Record<string, unknown>): RequestFact | null {
  const url = str(env.request_url);
  if (!url) return null;
  return {
    url,
    method: str(env.method),
    status: num(env.http_status),
    bytes: num(env.byte_length),
    retrievedAt: str(env.retrieved_at),
    sha256: str(env.sha256),
    cached: env.cached === true,
  };
}

/**
 * Reads a record's envelope by kind: a retrieval carries the record's URL and one
 * provenance envelope per HTTP request; a page is itself one request; a cell names its
 * generation; an artifact version its path and hash.
 */
export function evidenceFacts(record: EvidenceRecord | undefined): EvidenceFacts {
  const env = record && isRecord(record.envelope) ? record.envelope : {};
  const provenance = Array.isArray(env.provenance) ? env.provenance.filter(isRecord) : [];
  const requests = (provenance.length ? provenance : [env])
    .map(request)
    .filter((r): r is RequestFact => r !== null);
  const kind = record?.kind ?? null;
  return {
    kind,
    source: str(env.database) ?? (kind === 'page' && requests[0] ? hostOf(requests[0].url) : null),
    link: str(env.url) ?? str(env.final_url),
    requests,
    generation: str(env.generation),
    status: str(env.status),
    path: kind === 'artifact_version' ? str(env.path) : null,
    sha256: kind === 'artifact_version' ? str(env.sha256) : null,
    createdAt: record?.createdAt ?? null,
  };
}
