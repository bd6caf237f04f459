import { randomUUID } from 'node:crypto';
import { errorMessage } from '../../shared/errorMessage';
import { USER_AGENT } from '../http';
import { readAnswer, type NavigatorAnswer } from './answer';
import { captureReceipts, type Receipt } from './receipts';
import { Snp2Merger, type Snp2Event, type Snp2Step } from './snp2';
import { mergeHistory } from './history';
import { NavigatorError } from './errors';
import { SseReader } from './sse';

export { NavigatorError, type NavigatorErrorCode } from './errors';
export { mergeHistory } from './history';

/**
 * Bohrium's Science Navigator (seeds/bohrium-mentor-snp2.txt): create a session with the
 * question, read its SNP2 stream and merge it; when the stream breaks or stalls before
 * every answer finished, read the history endpoint (the same content, already merged) and
 * end with the same result. The access key goes in the Authorization header to the
 * configured host only: redirects are refused, never followed with the key.
 */

export const NAVIGATOR_KEY_VAR = 'OPENAI4S_BOHRIUM_ACCESS_KEY';
export const NAVIGATOR_BASE_VAR = 'OPENAI4S_BOHRIUM_BASE_URL';
export const NAVIGATOR_DEFAULT_BASE = 'https://open.bohrium.com/openapi';

const API = '/v2/sigma-search';
export const SESSIONS_PATH = `${API}/api/v4/ai_search/sessions`;
export const streamPath = (sessionId: string) => `${API}/api/v3/sse/ai_search/v1/${encodeURIComponent(sessionId)}/stream`;
export const historyPath = (sessionId: string) => `${API}/api/v4/${encodeURIComponent(sessionId)}/history`;

export const HOW_TO_GET_A_KEY =
  `Create an access key in your Bohrium account (https://www.bohrium.com, account settings → AccessKey), then set ${NAVIGATOR_KEY_VAR} in the environment or in the data root's .env (or store it in Settings), and retry.`;

export type FetchLike = (input: string, init: RequestInit) => Promise<Response>;

/** The most read of a session answer and of one history answer (a 400-reference history is about 1 MB). */
export const NAVIGATOR_BODY_LIMITS = { session: 1024 * 1024, history: 16 * 1024 * 1024 };

/** A response body as text, read up to `max` bytes; more is a named error, never held whole. */
async function boundedText(res: Response, max: number, what: string): Promise<string> {
  if (!res.body) return '';
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    size += chunk.length;
    if (size > max) {
      await (res.body as ReadableStream).cancel().catch(() => undefined);
      throw new NavigatorError('malformed_response', `${what} is over ${max.toLocaleString('en-US')} bytes, more than an answer can be; the service (or ${NAVIGATOR_BASE_VAR}) is not answering as the navigator does.`);
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

export interface NavigatorOptions {
  key: string;
  /** The API base (default https://open.bohrium.com/openapi); https, or http on loopback only. */
  baseUrl?: string;
  fetch?: FetchLike;
  /** No byte on the stream for this long counts as a stall (default 120 s; the seed: first packets can take 30-60 s). */
  stallMs?: number;
  /**
   * History reads while the answer is still being generated after the stream broke, and the
   * pause between them (default 60 reads 5 s apart: a deep answer can take minutes).
   */
  historyAttempts?: number;
  historyPauseMs?: number;
  requestTimeoutMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

export interface NavigatorQuery {
  question: string;
  discipline?: string;
  journalType?: 'foreign' | 'chinese';
  model?: string;
}

export interface NavigatorResult {
  sessionId: string;
  /** Where the final state came from: the stream, or the history endpoint after the stream broke. */
  via: 'stream' | 'history';
  /** Why the stream was given up, when it was. */
  streamProblem: string | null;
  answers: NavigatorAnswer[];
  /** Problems of the merge, named (patch before append, missing paths...). */
  issues: string[];
}

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]']);

/** The configured base URL, checked: https anywhere, plain http only on loopback (test servers). */
export function navigatorBase(raw: string | undefined): URL {
  const text = raw?.trim() || NAVIGATOR_DEFAULT_BASE;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new NavigatorError('not_configured', `${NAVIGATOR_BASE_VAR}=${text} is not a URL; set it like https://open.bohrium.com/openapi or unset it.`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && LOOPBACK.has(url.hostname))) {
    throw new NavigatorError('not_configured', `${NAVIGATOR_BASE_VAR}=${text}: only https:// (or http:// on 127.0.0.1/localhost) is allowed, so the key never travels in clear. Fix or unset it.`);
  }
  if (url.username || url.password || url.search || url.hash) {
    throw new NavigatorError('not_configured', `${NAVIGATOR_BASE_VAR}=${text}: no credentials, query or fragment in the base URL. Fix or unset it.`);
  }
  return url;
}

/** The request body the seed's reference script sends (scene adk_science_navigator). */
export function sessionRequest(q: NavigatorQuery): Record<string, unknown> {
  const model = q.model ?? 'reason';
  const discipline = q.discipline ?? 'All';
  const journalType = q.journalType ?? 'foreign';
  return {
    query: q.question,
    model,
    discipline,
    scene: 'adk_science_navigator',
    journal_type: journalType,
    snp_version: '1.0.0',
    resource_id_list: [],
    SNPReq: {
      sessionId: '',
      channel: {
        schema: 'fe',
        version: 'v1',
        role: 'user',
        auth: 1,
        messageId: randomUUID(),
        answerId: randomUUID(),
        uiInfo: { layout: 'main', type: 'ui', subType: '@bohrium-chat/common/markdown', content: { text: q.question }, actionList: [{ key: 'text', action: 'append' }] },
        entities: [],
        state: {},
        meta: {},
      },
      system: {
        payload: {
          model,
          agentId: 'science_navigator',
          sessionId: '',
          scene: 'adk_science_navigator',
          streaming: true,
          biz: { uploadList: [], sn: { discipline, journal_type: journalType, model } },
        },
      },
    },
  };
}

/** Live progress: each merged event, with the merger to read the current state from. */
export type NavigatorObserver = (step: Snp2Step, merger: Snp2Merger, receipts: ReadonlyMap<string, Receipt>) => void;

export class NavigatorClient {
  private readonly base: URL;
  private readonly fetch: FetchLike;

  constructor(private readonly opts: NavigatorOptions) {
    if (!opts.key.trim()) throw new NavigatorError('not_configured', `no access key is set. ${HOW_TO_GET_A_KEY}`);
    this.base = navigatorBase(opts.baseUrl);
    this.fetch = opts.fetch ?? ((input, init) => fetch(input, init));
  }

  get origin(): string {
    return this.base.origin;
  }

  private url(path: string): string {
    return `${this.base.origin}${this.base.pathname.replace(/\/+$/, '')}${path}`;
  }

  /** One request to the configured host: the key only here, redirects refused, statuses named. */
  private async request(method: 'GET' | 'POST', path: string, init: { body?: string; accept?: string; signal: AbortSignal; timeout?: boolean }): Promise<Response> {
    const url = this.url(path);
    const timeout = init.timeout === false ? null : AbortSignal.timeout(this.opts.requestTimeoutMs ?? 30_000);
    let res: Response;
    try {
      res = await this.fetch(url, {
        method,
        headers: {
          authorization: `Bearer ${this.opts.key.trim()}`,
          'user-agent': USER_AGENT,
          accept: init.accept ?? 'application/json',
          ...(init.body ? { 'content-type': 'application/json' } : {}),
        },
        ...(init.body ? { body: init.body } : {}),
        // A redirect would carry the key to another place: refused.
        redirect: 'manual',
        signal: timeout ? AbortSignal.any([init.signal, timeout]) : init.signal,
      });
    } catch (error) {
      if (init.signal.aborted) throw new NavigatorError('cancelled', `${method} ${url} was cancelled.`);
      throw new NavigatorError('network', `${method} ${url} failed (${timeout?.aborted ? 'timed out' : errorMessage(error)}); check the network or ${NAVIGATOR_BASE_VAR}.`);
    }
    if (res.status >= 200 && res.status < 300) return res;
    const excerpt = (await res.text().catch(() => '')).replace(/\s+/g, ' ').trim().slice(0, 200);
    if (res.status === 401 || res.status === 403) {
      throw new NavigatorError('unauthorized', `${method} ${url} answered HTTP ${res.status}: the access key was refused. ${HOW_TO_GET_A_KEY}`, res.status);
    }
    if (res.status === 429) throw new NavigatorError('rate_limited', `${method} ${url} answered HTTP 429 (too many requests); wait a minute and ask again.`, 429);
    if (res.status >= 300 && res.status < 400) {
      throw new NavigatorError('http_error', `${method} ${url} answered a redirect (HTTP ${res.status}), which is not followed so the key stays with the configured host; set ${NAVIGATOR_BASE_VAR} to the final address.`, res.status);
    }
    throw new NavigatorError('http_error', `${method} ${url} answered HTTP ${res.status}${excerpt ? `: ${excerpt}` : ''}`, res.status);
  }

  async createSession(q: NavigatorQuery, signal: AbortSignal): Promise<string> {
    const res = await this.request('POST', SESSIONS_PATH, { body: JSON.stringify(sessionRequest(q)), signal });
    let body: { code?: unknown; message?: unknown; data?: { sessionId?: unknown } };
    const text = await boundedText(res, NAVIGATOR_BODY_LIMITS.session, 'the answer to creating a session');
    try {
      body = JSON.parse(text) as typeof body;
    } catch (error) {
      throw new NavigatorError('malformed_response', `creating a session answered invalid JSON (${errorMessage(error)}).`);
    }
    if (!body || typeof body !== 'object') throw new NavigatorError('malformed_response', 'creating a session answered JSON that is not an object.');
    if (body.code !== 0 && body.code !== undefined) {
      throw new NavigatorError('upstream_error', `creating a session failed: ${typeof body.message === 'string' ? body.message : 'no message'} (code ${String(body.code)}).`);
    }
    const id = body.data?.sessionId;
    if (typeof id !== 'string' || !id) throw new NavigatorError('malformed_response', 'creating a session answered no data.sessionId.');
    return id;
  }

  /**
   * Asks the question and returns the merged answers, from the stream or, if it broke, from
   * history. A cancel at any point (a request in flight, a body being read, a wait) ends it
   * with the one `cancelled` error, whatever the step was doing when it came.
   */
  async ask(q: NavigatorQuery, signal: AbortSignal, observe?: NavigatorObserver): Promise<NavigatorResult> {
    try {
      return await this.answer(q, signal, observe);
    } catch (error) {
      if (signal.aborted) throw new NavigatorError('cancelled', 'the question was cancelled.');
      throw error;
    }
  }

  private async answer(q: NavigatorQuery, signal: AbortSignal, observe?: NavigatorObserver): Promise<NavigatorResult> {
    const sessionId = await this.createSession(q, signal);
    const merger = new Snp2Merger();
    const receipts = new Map<string, Receipt>();
    let problem: string | null = null;
    try {
      problem = await this.readStream(sessionId, merger, receipts, signal, observe);
    } catch (error) {
      if (signal.aborted) throw new NavigatorError('cancelled', 'the question was cancelled.');
      if (error instanceof NavigatorError && (error.code === 'unauthorized' || error.code === 'rate_limited')) throw error;
      problem = errorMessage(error);
    }
    const failed = [...merger.answers.values()].some((a) => a.lifecycle === 'error');
    if (problem === null || failed) {
      return { sessionId, via: 'stream', streamProblem: null, answers: merger.answerIds().map((id) => readAnswer(merger.answers.get(id)!, receipts)), issues: merger.issues };
    }
    return this.fromHistory(sessionId, problem, signal, observe);
  }

  /** Reads the stream until every answer settled; returns why it stopped early, or null. */
  private async readStream(sessionId: string, merger: Snp2Merger, receipts: Map<string, Receipt>, signal: AbortSignal, observe?: NavigatorObserver): Promise<string | null> {
    const stall = new AbortController();
    const res = await this.request('GET', streamPath(sessionId), { accept: 'text/event-stream', signal: AbortSignal.any([signal, stall.signal]), timeout: false });
    if (!res.body) return 'the stream answered no body';
    const stallMs = this.opts.stallMs ?? 120_000;
    let timer: NodeJS.Timeout | null = null;
    const arm = () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => stall.abort(), stallMs);
    };
    const reader = new SseReader();
    const handle = (data: string) => {
      let event: Snp2Event;
      try {
        event = JSON.parse(data) as Snp2Event;
      } catch {
        merger.issues.push(`an event that is not JSON was skipped: ${data.slice(0, 120)}`);
        return;
      }
      if (!event || typeof event !== 'object') return;
      captureReceipts(event, data, ['channel', 'uiInfo'], 'stream', receipts);
      const step = merger.apply(event);
      observe?.(step, merger, receipts);
    };
    arm();
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        arm();
        for (const m of reader.push(chunk)) {
          handle(m.data);
          if (merger.settled()) return null;
        }
      }
      for (const m of reader.end()) handle(m.data);
    } catch (error) {
      if (signal.aborted) throw error;
      if (stall.signal.aborted) return `the stream stalled (no data for ${Math.round(stallMs / 1000)} s)`;
      return `the stream broke (${errorMessage(error)})`;
    } finally {
      if (timer) clearTimeout(timer);
      // Whatever happens, the connection is closed (the server may keep it open after finish).
      await (res.body as ReadableStream | null)?.cancel().catch(() => undefined);
    }
    if (merger.settled()) return null;
    return merger.answers.size ? 'the stream ended before the answer finished' : 'the stream ended without any answer';
  }

  /** The injected sleep (tests), or a timer that a cancel clears at once. */
  private pause(ms: number, signal: AbortSignal): Promise<void> {
    if (this.opts.sleep) return this.opts.sleep(ms);
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, ms);
      signal.addEventListener('abort', done, { once: true });
    });
  }

  private async fromHistory(sessionId: string, problem: string, signal: AbortSignal, observe?: NavigatorObserver): Promise<NavigatorResult> {
    const attempts = Math.max(1, this.opts.historyAttempts ?? 60);
    let last: NavigatorResult | null = null;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      const res = await this.request('GET', historyPath(sessionId), { signal });
      const raw = await boundedText(res, NAVIGATOR_BODY_LIMITS.history, 'the history answer');
      const merger = new Snp2Merger();
      const receipts = new Map<string, Receipt>();
      mergeHistory(raw, merger, receipts);
      const answers = merger.answerIds().map((id) => readAnswer(merger.answers.get(id)!, receipts));
      last = { sessionId, via: 'history', streamProblem: problem, answers, issues: merger.issues };
      observe?.({ changes: [], issues: [] }, merger, receipts);
      if (answers.length && answers.every((a) => a.status !== 'incomplete')) return last;
      if (attempt < attempts) {
        // A cancel stops the wait too, not only the next request.
        await this.pause(this.opts.historyPauseMs ?? 5000, signal);
        if (signal.aborted) throw new NavigatorError('cancelled', 'the question was cancelled.');
      }
    }
    return last!;
  }
}
