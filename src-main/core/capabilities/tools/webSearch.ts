import dns from 'node:dns';
import { isIP } from 'node:net';
import { elementsOf, parseHtmlBounded, textOf, type HtmlElement } from '../../security/htmlParse';
import { guardedFetch, type EgressOptions, type EgressResponse } from '../../security/egress';
import { errorMessage } from '../../shared/errorMessage';

/**
 * The backends of `web_search`, in the order they are chosen: a SearXNG instance when one
 * is configured (self-hosted, keyless), the Brave Search API when its key is set, and
 * otherwise DuckDuckGo's HTML endpoint, which needs no configuration at all. The result
 * names the backend that answered.
 */

export const SEARCH_URL_VAR = 'OPENAI4S_SEARXNG_URL';
export const BRAVE_KEY_VAR = 'OPENAI4S_BRAVE_API_KEY';
/** Overrides of the two public endpoints (mirrors, loopback test servers). */
export const BRAVE_URL_VAR = 'OPENAI4S_BRAVE_BASE_URL';
export const DUCKDUCKGO_URL_VAR = 'OPENAI4S_DUCKDUCKGO_URL';
export const SEARCH_VARIABLES = [SEARCH_URL_VAR, BRAVE_KEY_VAR, BRAVE_URL_VAR, DUCKDUCKGO_URL_VAR] as const;

const DUCKDUCKGO_DEFAULT = 'https://html.duckduckgo.com/html/';
const BRAVE_DEFAULT = 'https://api.search.brave.com/res/v1/web/search';

export type SearchBackendName = 'searxng' | 'brave' | 'duckduckgo';

export interface SearchResultItem {
  rank: number;
  url: string;
  title: string;
  snippet: string;
}

export interface SearchAnswer {
  backend: SearchBackendName;
  /** The URL asked (without any key). */
  requestUrl: string;
  status: number;
  /** The exact bytes of the answer (their hash is each result's provenance). */
  body: Buffer;
  results: SearchResultItem[];
}

/** The endpoint as configured or by default (a configured one's own, possibly private, address is allowed). */
export interface BackendChoice extends Endpoint {
  backend: SearchBackendName;
  key?: string;
}

type Env = Record<string, string | undefined>;

/** Which backend answers, from configuration only (never the model). */
export function chooseBackend(env: Env): BackendChoice {
  const searx = env[SEARCH_URL_VAR]?.trim();
  if (searx) {
    const base = new URL(searx.endsWith('/') ? searx : `${searx}/`);
    return { backend: 'searxng', url: new URL('search', base), configured: true };
  }
  const key = env[BRAVE_KEY_VAR]?.trim();
  if (key) {
    const override = env[BRAVE_URL_VAR]?.trim();
    return { backend: 'brave', url: new URL(override || BRAVE_DEFAULT), configured: Boolean(override), key };
  }
  const override = env[DUCKDUCKGO_URL_VAR]?.trim();
  return { backend: 'duckduckgo', url: new URL(override || DUCKDUCKGO_DEFAULT), configured: Boolean(override) };
}

/** An endpoint address, and whether configuration (not a default) chose it. */
export interface Endpoint {
  url: URL;
  configured: boolean;
}

/** A configured endpoint may be on a private or loopback address: that address (and only it) is let through. */
export async function configuredAllowance(endpoint: Endpoint, egress: EgressOptions | undefined, varName: string): Promise<EgressOptions['allowAddress']> {
  if (!endpoint.configured) return egress?.allowAddress;
  const host = endpoint.url.hostname.replace(/^\[|\]$/g, '');
  const port = endpoint.url.port ? Number(endpoint.url.port) : endpoint.url.protocol === 'https:' ? 443 : 80;
  const allowed = new Set<string>([host]);
  if (!isIP(host)) {
    const resolve = egress?.resolve ?? (async (name: string) => (await dns.promises.lookup(name, { all: true, verbatim: true })).map((r) => ({ address: r.address })));
    try {
      for (const r of await resolve(host)) allowed.add(r.address);
    } catch (error) {
      throw new Error(`The host "${host}" of ${varName} does not resolve (${errorMessage(error)}); fix or unset ${varName}.`);
    }
  }
  return (addr, p) => (allowed.has(addr) && p === port) || (egress?.allowAddress?.(addr, p) ?? false);
}

type Element = HtmlElement;

const classesOf = (e: Element): string[] => (e.attrs.find((a) => a.name === 'class')?.value ?? '').split(/\s+/).filter(Boolean);
const attr = (e: Element, name: string) => e.attrs.find((a) => a.name === name)?.value ?? '';

const clean = (s: string) => s.replace(/\s+/g, ' ').trim();

/** A result link as the page gives it: direct, or DuckDuckGo's `/l/?uddg=` redirect; ads (`/y.js`) are not results. */
export function resultUrl(href: string, page: URL): string | null {
  if (!href) return null;
  let url: URL;
  try {
    url = new URL(href.startsWith('//') ? `https:${href}` : href, page);
  } catch {
    // Not a URL at all: not a result.
    return null;
  }
  if (/(^|\.)duckduckgo\.com$/.test(url.hostname) || url.href.startsWith(page.origin)) {
    if (url.pathname === '/l/' || url.pathname === '/l') return url.searchParams.get('uddg') || null;
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

/**
 * The organic results of a DuckDuckGo HTML page, parsed with a real HTML parser (parse5):
 * each `.result` block that is not an ad (`result--ad`), its `.result__a` title link and
 * its `.result__snippet`. Entities are decoded and markup (the `<b>` highlights) dropped.
 */
export function parseDuckDuckGo(html: string, page: URL): { results: SearchResultItem[]; challenge: boolean } {
  // Bounded like web_fetch's pages: a hostile results page cannot stall the app; what was read before a cut is used.
  const { doc } = parseHtmlBounded(html);
  const results: SearchResultItem[] = [];
  const seen = new Set<string>();
  let challenge = false;
  for (const el of elementsOf(doc)) {
    const classes = classesOf(el);
    if (classes.some((c) => c.startsWith('anomaly-modal'))) challenge = true;
    if (!classes.includes('result') || classes.includes('result--ad')) continue;
    let link: Element | null = null;
    let snippet = '';
    for (const inner of elementsOf(el)) {
      const c = classesOf(inner);
      if (!link && c.includes('result__a')) link = inner;
      else if (!snippet && c.includes('result__snippet')) snippet = clean(textOf(inner));
    }
    if (!link) continue;
    const url = resultUrl(attr(link, 'href'), page);
    if (!url || seen.has(url)) continue;
    seen.add(url);
    results.push({ rank: results.length + 1, url, title: clean(textOf(link)), snippet });
  }
  return { results, challenge };
}

interface SearxResult {
  url?: unknown;
  title?: unknown;
  content?: unknown;
}

function jsonBody<T>(res: EgressResponse, what: string, fix: string): T {
  try {
    return JSON.parse(res.body.toString('utf8')) as T;
  } catch {
    throw new Error(`${what} did not answer JSON; ${fix}`);
  }
}

/** Runs one search on the chosen backend; errors name the backend, the problem and the fix. */
export async function runSearch(query: string, max: number, choice: BackendChoice, egress: EgressOptions | undefined, signal: AbortSignal): Promise<SearchAnswer> {
  const url = new URL(choice.url);
  const headers: Record<string, string> = {};
  if (choice.backend === 'searxng') {
    url.searchParams.set('q', query);
    url.searchParams.set('format', 'json');
  } else if (choice.backend === 'brave') {
    url.searchParams.set('q', query);
    url.searchParams.set('count', String(max));
    headers['x-subscription-token'] = choice.key ?? '';
    headers.accept = 'application/json';
  } else {
    url.searchParams.set('q', query);
  }
  const varName = choice.backend === 'searxng' ? SEARCH_URL_VAR : choice.backend === 'brave' ? BRAVE_URL_VAR : DUCKDUCKGO_URL_VAR;
  const allowAddress = await configuredAllowance(choice, egress, varName);
  const res = await guardedFetch(url.href, {
    ...egress,
    signal,
    // Search endpoints answer directly; a redirect (with a key) is not followed.
    maxRedirects: 0,
    ...(Object.keys(headers).length ? { headers: { ...egress?.headers, ...headers } } : {}),
    ...(allowAddress ? { allowAddress } : {}),
  });
  const base = { backend: choice.backend, requestUrl: url.href, status: res.status, body: res.body };
  if (choice.backend === 'searxng') {
    if (res.status !== 200) throw new Error(`The search instance at ${choice.url.origin} answered HTTP ${res.status}; check ${SEARCH_URL_VAR} and that its JSON format is enabled.`);
    const body = jsonBody<{ results?: SearxResult[] }>(res, `The search instance at ${choice.url.origin}`, 'enable "json" under search.formats in its settings.yml.');
    const results = (body.results ?? []).filter((r) => typeof r.url === 'string').slice(0, max);
    return { ...base, results: results.map((r, i) => ({ rank: i + 1, url: String(r.url), title: typeof r.title === 'string' ? r.title : '', snippet: typeof r.content === 'string' ? r.content : '' })) };
  }
  if (choice.backend === 'brave') {
    if (res.status === 401 || res.status === 403) throw new Error(`The Brave Search API refused the key (HTTP ${res.status}); check ${BRAVE_KEY_VAR}, or unset it to search with DuckDuckGo.`);
    if (res.status !== 200) throw new Error(`The Brave Search API answered HTTP ${res.status}; retry later, or unset ${BRAVE_KEY_VAR} to search with DuckDuckGo.`);
    const body = jsonBody<{ web?: { results?: SearxResult & { description?: unknown }[] } }>(res, 'The Brave Search API', 'retry later.');
    const list = (body.web?.results ?? []) as (SearxResult & { description?: unknown })[];
    const results = list.filter((r) => typeof r.url === 'string').slice(0, max);
    const strip = (s: unknown) => (typeof s === 'string' ? clean(s.replace(/<[^>]*>/g, '')) : '');
    return { ...base, results: results.map((r, i) => ({ rank: i + 1, url: String(r.url), title: strip(r.title), snippet: strip(r.description) })) };
  }
  const html = res.body.toString('utf8');
  const parsed = parseDuckDuckGo(html, new URL(res.url));
  // DuckDuckGo answers a rate-limited client with HTTP 202 and a "select the ducks" page.
  if (parsed.challenge || res.status === 202) {
    throw new Error(`DuckDuckGo is rate-limiting this computer (it answered a bot challenge, HTTP ${res.status}); wait a minute and search again, or configure ${SEARCH_URL_VAR} (SearXNG) or ${BRAVE_KEY_VAR}.`);
  }
  if (res.status !== 200) throw new Error(`DuckDuckGo answered HTTP ${res.status}; retry later, or configure ${SEARCH_URL_VAR} (SearXNG) or ${BRAVE_KEY_VAR}.`);
  return { ...base, results: parsed.results.slice(0, max) };
}
