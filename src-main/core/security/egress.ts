import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import zlib from 'node:zlib';
import { classifyAddress, refusalReason } from './ipClassify';
import { errorMessage } from '../shared/errorMessage';

/**
 * The egress guard: the one way an agent-steered request leaves the computer. The URL is
 * parsed by the WHATWG parser (which already folds `127.1`, `0x7f000001`, `0177.0.0.1`
 * and `2130706433` into one dotted quad), the host is resolved once, every address is
 * classified from its bytes, and the socket is pinned to the validated address through
 * the `lookup` hook, so a second DNS answer (rebinding) can never be used. Each redirect
 * goes through the same check.
 */

export class EgressRefusedError extends Error {
  constructor(
    readonly url: string,
    readonly reason: string,
  ) {
    super(`Refused to fetch ${url}: ${reason}`);
    this.name = 'EgressRefusedError';
  }
}

export class EgressFailedError extends Error {
  constructor(
    readonly url: string,
    message: string,
    /** Ran out of time, or stopped by the caller: the window names these cases (toolErrorCode.ts). */
    readonly kind: 'timeout' | 'cancelled' | 'failed' = 'failed',
  ) {
    super(`Fetching ${url} failed: ${message}`);
    this.name = 'EgressFailedError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface EgressOptions {
  /** Body bytes kept (after decompression); the rest is dropped and `truncated` set. */
  maxBytes?: number;
  /** Wall-clock bound of the whole fetch, redirects included. */
  timeoutMs?: number;
  maxRedirects?: number;
  /** DNS resolution (injectable for tests); called once per host per hop. */
  resolve?: Resolver;
  /**
   * Exceptions to the address rule, decided by configuration or a test, never by the model:
   * `allowAddress(address, port)` true lets that exact address through.
   */
  allowAddress?: (address: string, port: number) => boolean;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export interface EgressResponse {
  /** The final URL, after redirects, without credentials. */
  url: string;
  status: number;
  contentType: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
  truncated: boolean;
  /** Every URL visited before the final one. */
  redirects: string[];
  /** The address the final connection was pinned to. */
  address: string;
}

export const EGRESS_DEFAULTS = { maxBytes: 2 * 1024 * 1024, timeoutMs: 20_000, maxRedirects: 5 } as const;

const defaultResolve: Resolver = async (hostname) => {
  const found = await dns.promises.lookup(hostname, { all: true, verbatim: true });
  return found.map((a) => ({ address: a.address, family: a.family === 6 ? 6 : 4 }));
};

/** Headers that carry credentials and never follow a redirect to another origin. */
const CREDENTIAL_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

const redact = (u: URL): string => {
  const c = new URL(u.href);
  c.username = '';
  c.password = '';
  return c.href;
};

/** Parses and checks the scheme; throws a refusal that says what is allowed. */
export function parseEgressUrl(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new EgressRefusedError(String(raw).slice(0, 200), 'not a valid absolute URL (give a full http:// or https:// address)');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new EgressRefusedError(redact(url), `the scheme ${url.protocol} is not allowed; only http and https are`);
  }
  return url;
}

const portOf = (u: URL): number => (u.port ? Number(u.port) : u.protocol === 'https:' ? 443 : 80);

/** Resolves the URL's host once and returns the validated address to pin, or throws why not. */
export async function checkDestination(url: URL, opts: Pick<EgressOptions, 'resolve' | 'allowAddress'> = {}): Promise<ResolvedAddress> {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const port = portOf(url);
  const literal = classifyAddress(host);
  let candidates: ResolvedAddress[];
  if (literal) {
    candidates = [{ address: literal.family === 4 && literal.embeddedIpv4 ? literal.embeddedIpv4 : host, family: literal.family }];
  } else if (/(^|\.)localhost\.?$/i.test(host)) {
    // RFC 6761: localhost names are loopback whatever a resolver says; no lookup needed.
    // Only a configured exception (never the model) may reach them.
    const loopback: ResolvedAddress[] = [
      { address: '127.0.0.1', family: 4 },
      { address: '::1', family: 6 },
    ];
    candidates = loopback.filter((c) => opts.allowAddress?.(c.address, port));
    if (!candidates.length) {
      throw new EgressRefusedError(redact(url), `${host} is a loopback name (this computer); the agent may only reach public internet addresses`);
    }
  } else {
    try {
      candidates = await (opts.resolve ?? defaultResolve)(host);
    } catch (error) {
      throw new EgressFailedError(redact(url), `the host name ${host} did not resolve (${errorMessage(error)})`);
    }
    if (!candidates.length) throw new EgressFailedError(redact(url), `the host name ${host} has no address`);
  }
  // Every address of the name must be acceptable: a name that mixes public and private
  // answers is how rebinding attacks start.
  for (const c of candidates) {
    const cls = classifyAddress(c.address);
    if (!cls) throw new EgressRefusedError(redact(url), `the resolver returned ${c.address}, which is not an IP address`);
    const why = refusalReason(cls);
    if (why && !opts.allowAddress?.(cls.address, port)) {
      const via = literal ? '' : ` (${host} resolves to it)`;
      throw new EgressRefusedError(redact(url), `${why}${via}; the agent may only reach public internet addresses`);
    }
  }
  const first = candidates[0]!;
  const cls = classifyAddress(first.address)!;
  return { address: cls.family === 4 ? cls.address : first.address, family: cls.family };
}

interface Hop {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
  truncated: boolean;
}

function decoder(encoding: string | undefined): NodeJS.ReadWriteStream | null {
  switch ((encoding ?? '').trim().toLowerCase()) {
    case 'gzip':
    case 'x-gzip':
      return zlib.createGunzip();
    case 'deflate':
      return zlib.createInflate();
    case 'br':
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

function requestOnce(url: URL, pinned: ResolvedAddress, headers: Record<string, string>, maxBytes: number, signal: AbortSignal): Promise<Hop> {
  return new Promise<Hop>((resolve, reject) => {
    // The pinned lookup: whatever name the socket asks for, it gets the validated address.
    const lookup = ((_host: string, options: { all?: boolean }, cb: (...args: unknown[]) => void) => {
      if (options?.all) cb(null, [{ address: pinned.address, family: pinned.family }]);
      else cb(null, pinned.address, pinned.family);
    }) as unknown as LookupFunction;
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, { method: 'GET', headers, lookup, agent: false, signal });
    req.on('error', reject);
    req.on('response', (res) => {
      const status = res.statusCode ?? 0;
      if (status >= 300 && status < 400 && res.headers.location) {
        res.resume();
        resolve({ status, headers: res.headers, body: Buffer.alloc(0), truncated: false });
        return;
      }
      const chunks: Buffer[] = [];
      let size = 0;
      let truncated = false;
      const decode = decoder(res.headers['content-encoding'] as string | undefined);
      const source: NodeJS.ReadableStream = decode ? res.pipe(decode) : res;
      const done = () => resolve({ status, headers: res.headers, body: Buffer.concat(chunks), truncated });
      source.on('data', (chunk: Buffer) => {
        if (truncated) return;
        const room = maxBytes - size;
        if (chunk.length > room) {
          chunks.push(chunk.subarray(0, room));
          size = maxBytes;
          truncated = true;
          res.destroy();
          done();
          return;
        }
        chunks.push(chunk);
        size += chunk.length;
      });
      source.on('end', () => {
        if (!truncated) done();
      });
      source.on('error', (error: Error) => {
        if (!truncated) reject(error);
      });
      res.on('aborted', () => {
        if (!truncated) reject(new Error('the server closed the connection mid-response'));
      });
    });
    req.end();
  });
}

/** GET through the egress guard: checked, pinned, redirect-checked, bounded. */
export async function guardedFetch(rawUrl: string, options: EgressOptions = {}): Promise<EgressResponse> {
  const maxBytes = options.maxBytes ?? EGRESS_DEFAULTS.maxBytes;
  const timeoutMs = options.timeoutMs ?? EGRESS_DEFAULTS.timeoutMs;
  const maxRedirects = options.maxRedirects ?? EGRESS_DEFAULTS.maxRedirects;
  const timeout = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;

  let url = parseEgressUrl(rawUrl);
  const headers: Record<string, string> = {
    'user-agent': 'OpenAI4S-Desktop (research agent; +https://github.com/PKU-YuanGroup/OpenAI4S)',
    accept: 'text/html,application/xhtml+xml,application/json,text/plain;q=0.9,*/*;q=0.5',
    'accept-encoding': 'gzip, deflate, br',
    ...Object.fromEntries(Object.entries(options.headers ?? {}).map(([k, v]) => [k.toLowerCase(), v])),
  };
  const redirects: string[] = [];
  // Each hop's host is resolved exactly once; the address checked is the address used.
  let pinned = await checkDestination(url, options);
  for (let hop = 0; ; hop++) {
    const hopHeaders = { ...headers };
    if (url.username || url.password) {
      hopHeaders.authorization = `Basic ${Buffer.from(`${decodeURIComponent(url.username)}:${decodeURIComponent(url.password)}`).toString('base64')}`;
    }
    const bare = new URL(redact(url));
    let res: Hop;
    try {
      res = await requestOnce(bare, pinned, hopHeaders, maxBytes, signal);
    } catch (error) {
      if (timeout.aborted) throw new EgressFailedError(redact(url), `no complete answer within ${timeoutMs} ms`, 'timeout');
      if (options.signal?.aborted) throw new EgressFailedError(redact(url), 'cancelled', 'cancelled');
      throw new EgressFailedError(redact(url), errorMessage(error));
    }
    const location = res.headers.location;
    if (res.status >= 300 && res.status < 400 && location) {
      if (hop >= maxRedirects) throw new EgressRefusedError(redact(url), `more than ${maxRedirects} redirects`);
      let next: URL;
      try {
        next = parseEgressUrl(new URL(location, url).href);
      } catch (error) {
        throw error instanceof EgressRefusedError
          ? new EgressRefusedError(redact(url), `it redirects to ${error.url}, which is refused: ${error.reason}`)
          : error;
      }
      redirects.push(redact(url));
      if (next.origin !== url.origin) {
        // Credentials were given for the first origin only.
        for (const h of CREDENTIAL_HEADERS) delete headers[h];
        if (next.username || next.password) {
          next.username = '';
          next.password = '';
        }
      } else if (!next.username && !next.password && (url.username || url.password)) {
        next.username = url.username;
        next.password = url.password;
      }
      try {
        pinned = await checkDestination(next, options);
      } catch (error) {
        if (error instanceof EgressRefusedError) {
          throw new EgressRefusedError(redact(url), `it redirects to ${error.url}, which is refused: ${error.reason}`);
        }
        throw error;
      }
      url = next;
      continue;
    }
    return {
      url: redact(url),
      status: res.status,
      contentType: String(res.headers['content-type'] ?? ''),
      headers: res.headers,
      body: res.body,
      truncated: res.truncated,
      redirects,
      address: pinned.address,
    };
  }
}
