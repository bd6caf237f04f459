import type { Provenance, ScienceDatabase, ScienceRecord } from '../../../src-preload/contract/evidence';
import type { Citation } from './citation';
import { ConnectorError } from './errors';
import type { XmlElement } from './xml';

/** A bounded filter a database accepts: its name, what it means, and the values allowed. */
export interface FilterSpec {
  description: string;
  pattern: RegExp;
  /** Shown to the model, e.g. "9606" or "2020-01-01". */
  example: string;
}

export interface OperationSpec {
  name: string;
  description: string;
  /** What `query` means for this operation ("UniProt query syntax", "a PDB id"...). */
  query: string;
  maxLimit: number;
  defaultLimit: number;
  filters: Record<string, FilterSpec>;
  /** Whether the operation pages with `cursor`. */
  cursor: boolean;
}

/** Validated input of one call. */
export interface ConnectorParams {
  operation: string;
  query: string;
  limit: number;
  cursor: string | null;
  filters: Record<string, string>;
}

/** One HTTP answer as a connector sees it, with its provenance already computed. */
export interface Fetched {
  status: number;
  bytes: Buffer;
  contentType: string | null;
  headers: Record<string, string>;
  provenance: Provenance;
  text(): string;
  /** JSON.parse, or a ConnectorError naming the URL and what is wrong. */
  json(): unknown;
  xml(): XmlElement;
}

export interface RequestOptions {
  accept?: string;
  /** Statuses the connector handles itself instead of failing (e.g. 404 for "no match"). */
  allowStatus?: number[];
}

/** What a connector may do: fetch from its own hosts, and write a file into the workspace. */
export interface ConnectorContext {
  readonly database: ScienceDatabase;
  /** Whether writeWorkspaceFile can work (checked before a download is fetched). */
  readonly hasWorkspace: boolean;
  get(host: string, path: string, query?: Record<string, string | number | undefined>, opts?: RequestOptions): Promise<Fetched>;
  post(host: string, path: string, body: unknown, opts?: RequestOptions): Promise<Fetched>;
  /**
   * Writes bytes under the session workspace (PDB/mmCIF downloads). Returns the
   * workspace-relative path. Fails when the call has no workspace (the CLI without --out).
   */
  writeWorkspaceFile(relativePath: string, bytes: Buffer): string;
}

/**
 * A record as a connector returns it: with, for literature, its full bibliographic fields,
 * which go into the evidence envelope only (the client takes them off before the model
 * or a caller sees the record).
 */
export type ConnectorRecord = ScienceRecord & { citation?: Citation };

export interface ConnectorOutput {
  records: ConnectorRecord[];
  total: number | null;
  nextCursor: string | null;
}

export interface Connector {
  database: ScienceDatabase;
  label: string;
  description: string;
  /** Bumped whenever the normalization changes, so old evidence says which one made it. */
  normalizerVersion: string;
  operations: OperationSpec[];
  run(params: ConnectorParams, ctx: ConnectorContext): Promise<ConnectorOutput>;
}

/** Small helpers shared by normalizers (answers are untrusted JSON). */
export const asObj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});
export const asArr = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
export const asStr = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
export const asNum = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : typeof v === 'string' && v.trim() && Number.isFinite(Number(v)) ? Number(v) : null);

/**
 * The identifying field of record `index` in an upstream answer, or a named error: a
 * record without its identifier is upstream drift, reported, never normalised into a
 * citable record with an empty id (the client then caches and records nothing).
 */
export function requireId(database: ScienceDatabase, field: string, index: number, value: unknown): string {
  const text = typeof value === 'string' ? value.trim() : typeof value === 'number' && Number.isFinite(value) ? String(value) : '';
  if (text) return text;
  const what = value === undefined ? 'no' : value === null ? 'a null' : typeof value === 'string' ? 'an empty' : `a ${typeof value}`;
  throw new UpstreamDriftError(database, field, index, what);
}

export class UpstreamDriftError extends ConnectorError {
  constructor(database: ScienceDatabase, field: string, index: number, what: string) {
    super(
      database,
      'malformed_response',
      `the upstream answer changed shape: record ${index} has ${what} "${field}". Nothing from this answer was cached or recorded as evidence; retry later, and if it persists the ${database} connector needs an update.`,
    );
    this.name = 'UpstreamDriftError';
  }
}

/** Drops undefined/null/empty values so records stay small for the model. */
export function compact(attrs: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === '' || (Array.isArray(v) && v.length === 0)) continue;
    out[k] = v;
  }
  return out;
}

/** Offset cursors ("o:40") for APIs paged by start index. */
export function offsetFrom(cursor: string | null): number {
  if (!cursor) return 0;
  const m = /^o:(\d{1,7})$/.exec(cursor);
  if (!m) throw new ConnectorError('science', 'invalid_request', `cursor "${cursor}" is not one this database issued; pass back next_cursor unchanged`);
  return Number(m[1]);
}

export function nextOffsetCursor(offset: number, got: number, limit: number, total: number | null): string | null {
  const next = offset + got;
  if (got < limit || (total !== null && next >= total)) return null;
  return `o:${next}`;
}
