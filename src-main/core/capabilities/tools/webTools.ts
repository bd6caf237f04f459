import dns from 'node:dns';
import { isIP } from 'node:net';
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { guardedFetch, type EgressOptions, type EgressResponse } from '../../security/egress';
import { htmlToText } from '../../security/htmlText';
import { annotateUntrusted } from '../../security/untrusted';
import { defineTool, reasonField, type Tool } from '../define';
import { errorMessage } from '../../shared/errorMessage';

/** The origin a permission names for a URL (a grant covers a site, not one page). */
export function urlTarget(raw: string): string {
  try {
    const u = new URL(raw);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : raw.slice(0, 200);
  } catch {
    // Not a URL: the permission names the text itself (the fetch refuses it later).
    return raw.slice(0, 200);
  }
}

function charsetOf(contentType: string): string {
  const m = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType);
  return m ? m[1]!.toLowerCase() : 'utf-8';
}

function decodeBody(res: EgressResponse): string {
  try {
    return new TextDecoder(charsetOf(res.contentType), { fatal: false }).decode(res.body);
  } catch {
    // A charset the decoder does not know: UTF-8 is the web's default.
    return new TextDecoder('utf-8').decode(res.body);
  }
}

/** The page as text for the model: HTML made readable, JSON and text as they are, binaries described. */
export function readablePage(res: EgressResponse): { title: string; text: string; kind: string } {
  const type = res.contentType.split(';')[0]!.trim().toLowerCase();
  const sniffHtml = /^\s*(<!doctype html|<html|<head|<body)/i.test(res.body.subarray(0, 512).toString('latin1'));
  if (type === 'text/html' || type === 'application/xhtml+xml' || (!type && sniffHtml)) {
    const { title, text } = htmlToText(decodeBody(res), res.url);
    return { title, text, kind: 'html' };
  }
  if (type.startsWith('text/') || type.endsWith('+json') || type.endsWith('+xml') || type === 'application/json' || type === 'application/xml' || type === '') {
    return { title: '', text: decodeBody(res), kind: type || 'text' };
  }
  return { title: '', text: `(binary content of type ${type}, ${res.body.length} bytes${res.truncated ? ' or more' : ''}; not shown. Download data files in a cell through host.web_fetch or a science connector.)`, kind: 'binary' };
}

/** A page web_fetch read, for the evidence store: where, when, and the hash of the exact bytes. */
export interface FetchedPageInfo {
  sessionId: string;
  url: string;
  finalUrl: string;
  status: number;
  retrievedAt: string;
  sha256: string;
  byteLength: number;
  contentType: string | null;
  title: string;
  text: string;
}

export interface WebToolsOptions {
  egress?: EgressOptions;
  env?: NodeJS.ProcessEnv;
  /** Records the page as evidence and returns its id (cited by `observed` claims). */
  onPage?: (page: FetchedPageInfo) => string | null;
}

export function webFetchTool(options: WebToolsOptions = {}): Tool {
  return defineTool({
    name: 'web_fetch',
    description:
      'Fetch a public web page or file over http(s) and return it as readable text (HTML is converted). Private, loopback and metadata addresses are refused.',
    input: z
      .object({
        url: z.string().min(1).max(4096).describe('An absolute http:// or https:// URL.'),
        max_chars: z.number().int().min(200).max(200_000).optional().describe('Keep at most this many characters of the text.'),
        reason: reasonField,
      })
      .strict(),
    sideEffect: 'network',
    defaultPolicy: 'ask',
    maxOutputBytes: 64 * 1024,
    resourceKeys: (a) => [`url:${a.url}`],
    target: (a) => urlTarget(a.url),
    async execute(a, ctx) {
      const res = await guardedFetch(a.url, { ...options.egress, signal: ctx.signal });
      const page = readablePage(res);
      if (res.status >= 400) {
        // An error page is outside content like any other: the model reads it marked as such.
        const snippet = page.text.trim().slice(0, 300);
        throw new Error(`HTTP ${res.status} from ${res.url}.${snippet ? `\n${annotateUntrusted(`web_fetch ${res.url} (error page)`, snippet).text}` : ''}`);
      }
      const text = a.max_chars && page.text.length > a.max_chars ? `${page.text.slice(0, a.max_chars)}\n[cut at max_chars=${a.max_chars}]` : page.text;
      const evidenceId =
        options.onPage?.({
          sessionId: ctx.sessionId,
          url: a.url,
          finalUrl: res.url,
          status: res.status,
          retrievedAt: new Date().toISOString(),
          sha256: createHash('sha256').update(res.body).digest('hex'),
          byteLength: res.body.length,
          contentType: res.contentType || null,
          title: page.title,
          text: page.text,
        }) ?? null;
      const head = [`URL: ${res.url}`, evidenceId ? `Evidence id: ${evidenceId}` : '', `Status: ${res.status}`, page.title ? `Title: ${page.title}` : '', res.redirects.length ? `Redirected from: ${res.redirects.join(' -> ')}` : '', res.truncated ? 'Note: the response was over the size cap and was cut.' : '']
        .filter(Boolean)
        .join('\n');
      return {
        text: `${head}\n\n${text}`,
        untrustedSource: `web_fetch ${res.url}`,
        output: { url: res.url, evidenceId, status: res.status, title: page.title, contentType: res.contentType, bytes: res.body.length, truncated: res.truncated, redirects: res.redirects, kind: page.kind },
      };
    },
  });
}

/** The setting that turns web search on: a SearXNG instance (keyless, self-hostable) with its JSON API enabled. */
export const SEARCH_URL_VAR = 'OPENAI4S_SEARXNG_URL';

interface SearxResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
  engine?: unknown;
}

export function webSearchTool(options: WebToolsOptions = {}): Tool {
  return defineTool({
    name: 'web_search',
    description: 'Search the web; returns titles, URLs and snippets. Fetch a result with web_fetch to read it.',
    input: z.object({ query: z.string().min(1).max(400), max_results: z.number().int().min(1).max(20).default(8), reason: reasonField }).strict(),
    sideEffect: 'network',
    defaultPolicy: 'ask',
    resourceKeys: (a) => [`search:${a.query}`],
    target: () => {
      const base = (options.env ?? process.env)[SEARCH_URL_VAR];
      return base ? urlTarget(base) : 'web search (not configured)';
    },
    async execute(a, ctx) {
      const base = (options.env ?? process.env)[SEARCH_URL_VAR]?.trim();
      if (!base) {
        throw new Error(
          `web_search is not configured: set ${SEARCH_URL_VAR} to a SearXNG instance with the JSON format enabled (for example http://127.0.0.1:8888). ` +
            'Meanwhile use science_search for literature and databases, or web_fetch on a known URL.',
        );
      }
      const url = new URL('search', base.endsWith('/') ? base : `${base}/`);
      url.searchParams.set('q', a.query);
      url.searchParams.set('format', 'json');
      // The instance is the user's configuration, not the model's choice, so its own address is allowed.
      const configured = new URL(base);
      const host = configured.hostname.replace(/^\[|\]$/g, '');
      const port = configured.port ? Number(configured.port) : configured.protocol === 'https:' ? 443 : 80;
      // A name (localhost, a LAN host) is allowed at the addresses it resolves to now; redirects are off.
      const allowed = new Set<string>([host]);
      if (!isIP(host)) {
        const resolve = options.egress?.resolve ?? (async (name: string) => (await dns.promises.lookup(name, { all: true, verbatim: true })).map((r) => ({ address: r.address })));
        try {
          for (const r of await resolve(host)) allowed.add(r.address);
        } catch (error) {
          throw new Error(`The search instance host "${host}" of ${SEARCH_URL_VAR} does not resolve (${errorMessage(error)}).`);
        }
      }
      const res = await guardedFetch(url.href, {
        ...options.egress,
        signal: ctx.signal,
        maxRedirects: 0,
        allowAddress: (addr, p) => (allowed.has(addr) && p === port) || (options.egress?.allowAddress?.(addr, p) ?? false),
      });
      if (res.status !== 200) throw new Error(`The search instance at ${configured.origin} answered HTTP ${res.status}; check ${SEARCH_URL_VAR} and that its JSON format is enabled.`);
      let body: { results?: SearxResult[] };
      try {
        body = JSON.parse(res.body.toString('utf8')) as { results?: SearxResult[] };
      } catch {
        throw new Error(`The search instance at ${configured.origin} did not answer JSON; enable "json" under search.formats in its settings.yml.`);
      }
      const results = (body.results ?? [])
        .filter((r) => typeof r.url === 'string')
        .slice(0, a.max_results)
        .map((r) => ({ url: String(r.url), title: typeof r.title === 'string' ? r.title : '', snippet: typeof r.content === 'string' ? r.content : '', engine: typeof r.engine === 'string' ? r.engine : '' }));
      const text = results.length ? results.map((r, i) => `${i + 1}. ${r.title}\n   ${r.url}\n   ${r.snippet}`).join('\n') : `No results for "${a.query}".`;
      return { text, untrustedSource: `web_search "${a.query}"`, output: { query: a.query, results } };
    },
  });
}
