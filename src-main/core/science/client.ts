import type { Provenance, ScienceDatabase, ScienceRecord, ScienceSearchResult } from '../../../src-preload/contract/evidence';
import type { EvidenceStore } from '../records/evidenceStore';
import { cacheKey, sha256Hex, type ResponseCache } from '../records/responseCache';
import { requireId, type Connector, type ConnectorContext, type ConnectorParams, type Fetched, type RequestOptions } from './connector';
import { joinUrl, resolveHosts, type EnvLookup } from './endpoints';
import { ConnectorError } from './errors';
import { HttpClient } from './http';
import { parseXml } from './xml';
import { writeWorkspaceFile } from '../workspace/safeFs';
import { errorMessage } from '../shared/errorMessage';

export interface ScienceCallContext {
  /** When set (and an evidence store is configured), each record becomes evidence of this session. */
  sessionId?: string;
  /** Host path of the session workspace, where downloads go. */
  workspace?: string;
  signal?: AbortSignal;
}

export interface ScienceClientOptions {
  connectors: Connector[];
  env: EnvLookup;
  /** A session's own endpoint overrides (the in-app demo replays recorded answers in one session only). */
  envFor?: (sessionId: string) => EnvLookup | null;
  http?: HttpClient;
  cache?: ResponseCache;
  /** How long a cached answer is reused (default 24 h; 0 disables the cache). */
  ttlMs?: number;
  evidence?: EvidenceStore;
  now?: () => Date;
}

const SNIPPET_ATTRS = 6;

/**
 * Runs connectors: resolves their hosts from configuration, fetches through the polite
 * HTTP client and the response cache, computes the provenance envelope of every answer
 * from its raw bytes, and records one evidence item per returned record.
 */
export class ScienceClient {
  private readonly http: HttpClient;
  private readonly byDb: Map<ScienceDatabase, Connector>;
  private readonly now: () => Date;

  constructor(private readonly opts: ScienceClientOptions) {
    this.http = opts.http ?? new HttpClient();
    this.byDb = new Map(opts.connectors.map((c) => [c.database, c]));
    this.now = opts.now ?? (() => new Date());
  }

  get connectors(): Connector[] {
    return [...this.byDb.values()];
  }

  connector(database: string): Connector {
    const c = this.byDb.get(database as ScienceDatabase);
    if (!c) {
      throw new ConnectorError('science', 'invalid_request', `unknown database "${database}"; choose one of ${[...this.byDb.keys()].join(', ')}.`);
    }
    return c;
  }

  async search(
    database: string,
    input: { operation?: string; query: string; limit?: number; cursor?: string | null; filters?: Record<string, string> },
    call: ScienceCallContext = {},
  ): Promise<ScienceSearchResult> {
    const connector = this.connector(database);
    const params = this.validate(connector, input);
    const provenance: Provenance[] = [];
    // Answers enter the cache only once the whole call normalised: a drifted or malformed
    // answer must not be served again from the cache as if it were good.
    const cacheWrites: (() => void)[] = [];
    const ctx = this.context(connector, params, call, provenance, cacheWrites);
    let out;
    try {
      out = await connector.run(params, ctx);
      out.records.forEach((rec, index) => requireId(connector.database, 'id', index, rec.id));
    } catch (error) {
      if (error instanceof ConnectorError) throw error;
      // An answer of an unexpected shape must be a named connector error, not a crash.
      throw new ConnectorError(connector.database, 'malformed_response', `the answer to ${provenance.at(-1)?.request_url ?? 'the request'} has an unexpected shape (${errorMessage(error)}).`);
    }
    for (const write of cacheWrites) write();
    // The citation (a paper's every author, volume, pages...) is for the evidence only: the
    // model and callers get the record with its short attributes, as before.
    const cited = out.records.slice(0, params.limit).map(({ citation, ...record }) => ({ record: record satisfies ScienceRecord, citation }));
    const records = cited.map((c) => c.record);
    if (call.sessionId && this.opts.evidence) {
      for (const { record: rec, citation } of cited) {
        const attrs = Object.entries(rec.attributes)
          .filter(([, v]) => typeof v === 'string' || typeof v === 'number')
          .slice(0, SNIPPET_ATTRS)
          .map(([k, v]) => `${k}: ${String(v)}`);
        const ev = this.opts.evidence.record({
          sessionId: call.sessionId,
          kind: 'retrieval',
          key: [connector.database, rec.id, ...provenance.map((p) => `${p.sha256}@${p.retrieved_at}`)].join('|'),
          title: `${connector.label} ${rec.id}: ${rec.title}`,
          snippet: [rec.title, ...attrs].join('\n'),
          envelope: { database: connector.database, operation: params.operation, record_id: rec.id, url: rec.url, type: rec.type, provenance, ...(citation ? { citation } : {}) },
        });
        rec.evidence_id = ev.id;
      }
    }
    return {
      database: connector.database,
      operation: params.operation,
      query: params.query,
      records,
      total: out.total,
      next_cursor: out.nextCursor,
      provenance,
    };
  }

  /** Bounded input: known operation, limit within the operation's maximum, only declared filters. */
  private validate(
    connector: Connector,
    input: { operation?: string; query: string; limit?: number; cursor?: string | null; filters?: Record<string, string> },
  ): ConnectorParams {
    const db = connector.database;
    const op = connector.operations.find((o) => o.name === (input.operation ?? connector.operations[0]!.name));
    if (!op) {
      throw new ConnectorError(db, 'invalid_request', `unknown operation "${input.operation}"; ${db} offers ${connector.operations.map((o) => o.name).join(', ')}.`);
    }
    const query = input.query.trim();
    if (!query) throw new ConnectorError(db, 'invalid_request', `operation ${op.name} needs a query (${op.query}).`);
    if (query.length > 2000) throw new ConnectorError(db, 'invalid_request', 'the query is longer than 2000 characters.');
    const limit = input.limit ?? op.defaultLimit;
    if (!Number.isInteger(limit) || limit < 1 || limit > op.maxLimit) {
      throw new ConnectorError(db, 'invalid_request', `limit ${limit} is out of range; ${db} ${op.name} returns 1 to ${op.maxLimit} records per call (page with cursor).`);
    }
    if (input.cursor && !op.cursor) throw new ConnectorError(db, 'invalid_request', `operation ${op.name} does not page; drop the cursor.`);
    if (input.cursor && input.cursor.length > 2000) throw new ConnectorError(db, 'invalid_request', 'the cursor is longer than 2000 characters.');
    const filters: Record<string, string> = {};
    for (const [name, value] of Object.entries(input.filters ?? {})) {
      const spec = op.filters[name];
      if (!spec) {
        const known = Object.keys(op.filters);
        throw new ConnectorError(db, 'invalid_request', `unknown filter "${name}" for ${op.name}; ${known.length ? `allowed: ${known.join(', ')}` : 'it takes no filters'}.`);
      }
      if (typeof value !== 'string' || !spec.pattern.test(value)) {
        throw new ConnectorError(db, 'invalid_request', `filter ${name}=${JSON.stringify(value)} is not valid (${spec.description}; e.g. ${spec.example}).`);
      }
      filters[name] = value;
    }
    return { operation: op.name, query, limit, cursor: input.cursor ?? null, filters };
  }

  private context(connector: Connector, params: ConnectorParams, call: ScienceCallContext, provenance: Provenance[], cacheWrites: (() => void)[]): ConnectorContext {
    const db = connector.database;
    const hosts = resolveHosts(db, (call.sessionId && this.opts.envFor?.(call.sessionId)) || this.opts.env);
    const parameters: Record<string, unknown> = { operation: params.operation, query: params.query, limit: params.limit };
    if (params.cursor) parameters.cursor = params.cursor;
    if (Object.keys(params.filters).length) parameters.filters = params.filters;
    const fetchOne = async (method: 'GET' | 'POST', hostKey: string, url: URL, body: string | undefined, opts: RequestOptions = {}): Promise<Fetched> => {
      if (!hosts[hostKey]) throw new ConnectorError(db, 'not_configured', `no host "${hostKey}" is declared for ${db}.`);
      const key = cacheKey(method, url.href, body);
      const ttl = this.opts.ttlMs ?? 24 * 3600_000;
      const hit = ttl > 0 ? this.opts.cache?.get(key, this.now().getTime()) : null;
      let status: number;
      let bytes: Buffer;
      let contentType: string | null;
      let headers: Record<string, string>;
      let retrievedAt: string;
      let cached = false;
      if (hit) {
        ({ status, contentType, retrievedAt, headers } = hit.entry);
        bytes = hit.bytes;
        cached = true;
      } else {
        const res = await this.http.request({ database: db, method, url, ...(body !== undefined ? { body } : {}), ...(opts.accept ? { accept: opts.accept } : {}) }, call.signal);
        ({ status, bytes, contentType, headers } = res);
        retrievedAt = this.now().toISOString();
      }
      const sha256 = hit ? hit.entry.sha256 : sha256Hex(bytes);
      const prov: Provenance = {
        database: db,
        request_url: url.href,
        method,
        parameters,
        retrieved_at: retrievedAt,
        http_status: status,
        byte_length: bytes.byteLength,
        sha256,
        normalizer_version: connector.normalizerVersion,
        cached,
      };
      provenance.push(prov);
      const ok = status >= 200 && status < 300;
      if (!ok && !(opts.allowStatus ?? []).includes(status)) {
        const excerpt = bytes.subarray(0, 300).toString('utf8').replace(/\s+/g, ' ').trim();
        const code = status === 404 ? 'not_found' : 'http_error';
        throw new ConnectorError(db, code, `${method} ${url.href} answered HTTP ${status}${excerpt ? `: ${excerpt}` : ''}`, status);
      }
      if (ok && !cached && ttl > 0) {
        const entry = { requestUrl: url.href, status, contentType, headers, retrievedAt, sha256, expiresAt: this.now().getTime() + ttl };
        cacheWrites.push(() => this.opts.cache?.put(key, entry, bytes));
      }
      return {
        status,
        bytes,
        contentType,
        headers,
        provenance: prov,
        text: () => bytes.toString('utf8'),
        json: () => {
          try {
            return JSON.parse(bytes.toString('utf8')) as unknown;
          } catch (error) {
            throw new ConnectorError(db, 'malformed_response', `${url.href} answered invalid JSON (${errorMessage(error)}); sha256 ${sha256}.`);
          }
        },
        xml: () => {
          try {
            return parseXml(bytes.toString('utf8'));
          } catch (error) {
            throw new ConnectorError(db, 'malformed_response', `${url.href} answered malformed XML (${errorMessage(error)}); sha256 ${sha256}.`);
          }
        },
      };
    };
    return {
      database: db,
      hasWorkspace: Boolean(call.workspace),
      get: (host, p, query, opts) => fetchOne('GET', host, joinUrl(hosts[host]?.url ?? new URL('https://invalid'), p, query), undefined, opts),
      post: (host, p, body, opts) => fetchOne('POST', host, joinUrl(hosts[host]?.url ?? new URL('https://invalid'), p), JSON.stringify(body), opts),
      writeWorkspaceFile: (relativePath, bytes) => {
        if (!call.workspace) {
          throw new ConnectorError(db, 'invalid_request', 'this download needs a session workspace (from a session, or --out DIR on the CLI).');
        }
        if (!/^[A-Za-z0-9._-]+(\/[A-Za-z0-9._-]+)*$/.test(relativePath) || relativePath.split('/').includes('..')) {
          throw new ConnectorError(db, 'invalid_request', `refusing to write "${relativePath}" outside the workspace.`);
        }
        // Through safeFs: a folder a cell swapped for a symlink is refused, never followed.
        try {
          writeWorkspaceFile(call.workspace, relativePath, bytes, { atomic: true });
        } catch (error) {
          throw new ConnectorError(db, 'invalid_request', `could not save the download: ${errorMessage(error)}`);
        }
        return relativePath;
      },
    };
  }
}
