import type { ScienceDatabase } from '../../../src-preload/contract/evidence';
import { APP_VERSION } from '../config/version';
import { ConnectorError } from './errors';
import { HostRateLimiter, defaultInterval } from './rateLimit';
import { retryAfterFromHeaders } from '../shared/retryAfter';
import { errorMessage } from '../shared/errorMessage';

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

export interface HttpRequest {
  database: ScienceDatabase;
  method: 'GET' | 'POST';
  url: URL;
  body?: string;
  accept?: string;
}

export interface HttpResponse {
  status: number;
  bytes: Buffer;
  contentType: string | null;
  /** The paging headers some APIs use (UniProt: Link, X-Total-Results); others are dropped. */
  headers: Record<string, string>;
}

export const KEPT_HEADERS = ['link', 'x-total-results'] as const;

export interface HttpClientOptions {
  /** Injectable so tests can count or fail requests; the default is the global fetch. */
  fetch?: FetchLike;
  limiter?: HostRateLimiter;
  /** Attempts in total for 429/5xx and network failures (default 3). */
  attempts?: number;
  /** First backoff; doubles per retry; a Retry-After header wins up to `maxBackoffMs`. */
  backoffMs?: number;
  maxBackoffMs?: number;
  timeoutMs?: number;
  /** Responses larger than this are refused (structure files are a few MB). */
  maxBytes?: number;
  sleep?: (ms: number) => Promise<void>;
}

export const USER_AGENT = `OpenAI4S-Desktop/${APP_VERSION} (research-agent workbench; +https://github.com/PKU-YuanGroup/OpenAI4S)`;

const RETRY_STATUS = new Set([429, 500, 502, 503, 504]);

/** Reads the body up to `max` bytes; a larger body is an error, not a silent truncation. */
async function readCapped(res: Response, max: number, req: HttpRequest): Promise<Buffer> {
  const declared = Number(res.headers.get('content-length'));
  if (Number.isFinite(declared) && declared > max) {
    await res.body?.cancel();
    throw new ConnectorError(req.database, 'too_large', `${req.url.href} answered ${declared} bytes, over the ${max}-byte limit.`);
  }
  if (!res.body) return Buffer.alloc(0);
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    total += chunk.byteLength;
    if (total > max) {
      throw new ConnectorError(req.database, 'too_large', `${req.url.href} sent more than the ${max}-byte limit.`);
    }
    chunks.push(Buffer.from(chunk));
  }
  return Buffer.concat(chunks);
}

/**
 * The one way connectors reach the network: User-Agent, per-host pacing, a timeout,
 * retries on 429 and 5xx (honouring Retry-After) and on network errors, a size cap.
 * Other statuses are returned to the connector, which knows what a 404 means.
 */
export class HttpClient {
  private readonly fetch: FetchLike;
  private readonly limiter: HostRateLimiter;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly opts: HttpClientOptions = {}) {
    this.fetch = opts.fetch ?? ((input, init) => fetch(input, init));
    this.sleep = opts.sleep ?? ((ms) => new Promise((r) => setTimeout(r, ms)));
    this.limiter = opts.limiter ?? new HostRateLimiter(defaultInterval, Date.now, this.sleep);
  }

  async request(req: HttpRequest, signal?: AbortSignal): Promise<HttpResponse> {
    const attempts = this.opts.attempts ?? 3;
    const maxBackoff = this.opts.maxBackoffMs ?? 10_000;
    let backoff = this.opts.backoffMs ?? 500;
    let lastProblem = '';
    for (let attempt = 1; attempt <= attempts; attempt++) {
      signal?.throwIfAborted();
      await this.limiter.acquire(req.url.host, signal);
      const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 30_000);
      const headers: Record<string, string> = { 'user-agent': USER_AGENT, accept: req.accept ?? '*/*' };
      if (req.body !== undefined) headers['content-type'] = 'application/json';
      let res: Response;
      try {
        res = await this.fetch(req.url.href, {
          method: req.method,
          headers,
          body: req.body,
          redirect: 'follow',
          signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
        });
      } catch (error) {
        if (signal?.aborted) throw new ConnectorError(req.database, 'cancelled', `request to ${req.url.href} was cancelled.`);
        lastProblem = timeout.aborted ? 'timed out' : `failed (${errorMessage(error)})`;
        if (attempt < attempts) {
          await this.sleep(Math.min(backoff, maxBackoff));
          backoff *= 2;
          continue;
        }
        throw new ConnectorError(req.database, 'network', `${req.method} ${req.url.href} ${lastProblem} after ${attempts} attempts; check the network or the configured base URL.`);
      }
      if (RETRY_STATUS.has(res.status) && attempt < attempts) {
        const wait = retryAfterFromHeaders((name) => res.headers.get(name)) ?? backoff;
        await res.body?.cancel();
        await this.sleep(Math.min(wait, maxBackoff));
        backoff *= 2;
        continue;
      }
      const bytes = await readCapped(res, this.opts.maxBytes ?? 64 * 1024 * 1024, req);
      const kept: Record<string, string> = {};
      for (const name of KEPT_HEADERS) {
        const value = res.headers.get(name);
        if (value !== null) kept[name] = value;
      }
      return { status: res.status, bytes, contentType: res.headers.get('content-type'), headers: kept };
    }
    throw new ConnectorError(req.database, 'network', `${req.url.href}: no attempt was made (attempts=${attempts}).`);
  }
}
