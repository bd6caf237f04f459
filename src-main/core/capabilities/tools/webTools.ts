import { createHash } from 'node:crypto';
import { z } from 'zod';
import { guardedFetch, type EgressOptions, type EgressResponse } from '../../security/egress';
import { parseHtmlBounded } from '../../security/htmlParse';
import { readableText } from '../../security/htmlText';
import type { Citation } from '../../science/citation';
import { pageCitation } from '../../science/pageCitation';
import { annotateUntrusted } from '../../security/untrusted';
import { defineTool, reasonField, type Tool } from '../define';
import { errorMessage } from '../../shared/errorMessage';
import { registerSecrets } from '../../security/secrets';
import { chooseBackend, runSearch, SEARCH_VARIABLES, type SearchBackendName, type SearchResultItem } from './webSearch';

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

/**
 * The page as text for the model: HTML made readable, JSON and text as they are, binaries
 * described. An HTML page's citation meta tags (a journal article's authors, DOI...) come
 * back apart, for its evidence only: the model's text is the same with or without them.
 */
export function readablePage(res: EgressResponse): { title: string; text: string; kind: string; cut?: string | null; citation?: Citation } {
  const type = res.contentType.split(';')[0]!.trim().toLowerCase();
  const sniffHtml = /^\s*(<!doctype html|<html|<head|<body)/i.test(res.body.subarray(0, 512).toString('latin1'));
  if (type === 'text/html' || type === 'application/xhtml+xml' || (!type && sniffHtml)) {
    const parsed = parseHtmlBounded(decodeBody(res));
    const { title, text, cut } = readableText(parsed, res.url);
    const citation = pageCitation(parsed.doc);
    return { title, text, kind: 'html', cut, ...(citation ? { citation } : {}) };
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
  /** The page's own citation (its Highwire / Dublin Core meta tags), when it declares one. */
  citation?: Citation;
}

export interface WebToolsOptions {
  egress?: EgressOptions;
  env?: NodeJS.ProcessEnv;
  /** Records the page as evidence and returns its id (cited by `observed` claims). */
  onPage?: (page: FetchedPageInfo) => string | null;
  /** Records each search result as evidence and returns their ids, in result order. */
  onSearch?: (search: SearchResultsInfo) => string[];
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
          ...(page.citation ? { citation: page.citation } : {}),
        }) ?? null;
      const head = [`URL: ${res.url}`, evidenceId ? `Evidence id: ${evidenceId}` : '', `Status: ${res.status}`, page.title ? `Title: ${page.title}` : '', res.redirects.length ? `Redirected from: ${res.redirects.join(' -> ')}` : '', res.truncated ? 'Note: the response was over the size cap and was cut.' : '', page.cut ? `Note: the page was read only in part: ${page.cut}.` : '']
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

export { SEARCH_URL_VAR } from './webSearch';

/** One search as evidence: which backend answered, the hash of its exact answer, and the results. */
export interface SearchResultsInfo {
  sessionId: string;
  query: string;
  backend: SearchBackendName;
  requestUrl: string;
  status: number;
  retrievedAt: string;
  sha256: string;
  byteLength: number;
  results: SearchResultItem[];
}

export function webSearchTool(options: WebToolsOptions = {}): Tool {
  const env = () => (options.env ?? process.env) as Record<string, string | undefined>;
  return defineTool({
    name: 'web_search',
    description: 'Search the web; returns titles, URLs and snippets. Fetch a result with web_fetch to read it.',
    input: z.object({ query: z.string().min(1).max(400), max_results: z.number().int().min(1).max(20).default(8), reason: reasonField }).strict(),
    sideEffect: 'network',
    defaultPolicy: 'ask',
    resourceKeys: (a) => [`search:${a.query}`],
    target: () => {
      try {
        return urlTarget(chooseBackend(env()).url.href);
      } catch {
        // A malformed configured URL: the call itself reports it.
        return 'web search (misconfigured)';
      }
    },
    async execute(a, ctx) {
      let choice;
      try {
        choice = chooseBackend(env());
      } catch (error) {
        throw new Error(`The web search configuration is not a URL (${errorMessage(error)}); fix or unset ${SEARCH_VARIABLES.join(', ')}.`);
      }
      if (choice.key) registerSecrets([choice.key]);
      const answer = await runSearch(a.query, a.max_results, choice, options.egress, ctx.signal);
      const ids =
        options.onSearch?.({
          sessionId: ctx.sessionId,
          query: a.query,
          backend: answer.backend,
          requestUrl: answer.requestUrl,
          status: answer.status,
          retrievedAt: new Date().toISOString(),
          sha256: createHash('sha256').update(answer.body).digest('hex'),
          byteLength: answer.body.length,
          results: answer.results,
        }) ?? [];
      const results = answer.results.map((r, i) => ({ ...r, evidenceId: ids[i] ?? null }));
      const head = `Backend: ${answer.backend}`;
      const text = results.length
        ? `${head}\n${results.map((r, i) => `${i + 1}. ${r.title}\n   ${r.url}${r.evidenceId ? `\n   Evidence id: ${r.evidenceId}` : ''}\n   ${r.snippet}`).join('\n')}`
        : `${head}\nNo results for "${a.query}".`;
      return { text, untrustedSource: `web_search "${a.query}"`, output: { query: a.query, backend: answer.backend, results } };
    },
  });
}
