import type { Receipt } from './receipts';
import { messagesOf, type Snp2Answer } from './snp2';

/**
 * What a merged SNP2 answer means (seeds/bohrium-mentor-snp2.txt, "output format"): the
 * thought chain (`preprocessor`), the Markdown answer (`main`, markdown), the resource map
 * (`main`, cards-data), the References and All tabs (`sider`, tab ids `used` and `all`)
 * and the suggested questions (`postprocessor`).
 */

export interface ThinkingNode {
  title: string;
  /** 0 running, 1 done, 2 failed (content.status). */
  status: number | null;
  type: string;
  description: string;
  /** The searches of a search step, and its result line. */
  items: string[];
  children: ThinkingNode[];
}

export interface NavigatorReference {
  resourceId: string;
  /** `paper`, `web`, or the card type as sent. */
  kind: string;
  title: string;
  authors: string[];
  journal: string;
  year: number | null;
  doi: string;
  url: string;
  /** A web page's site, a paper's abstract start or snippet. */
  source: string;
  snippet: string;
  /** The exact bytes the record arrived as; null when it was not sent whole (e.g. only patched field by field). */
  receipt: Receipt | null;
}

export type AnswerStatus = 'complete' | 'failed' | 'incomplete';

export interface NavigatorAnswer {
  answerId: string;
  status: AnswerStatus;
  error: string | null;
  text: string;
  thinking: ThinkingNode | null;
  used: NavigatorReference[];
  all: NavigatorReference[];
  suggestions: string[];
}

const MARKDOWN = '@bohrium-chat/common/markdown';
const CARDS = '@bohrium-chat/snp/cards-data';

const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : typeof v === 'number' ? String(v) : '');

function textOf(v: unknown): string {
  if (typeof v === 'string') return v;
  if (isObj(v)) return str(v.text);
  return '';
}

export function thinkingTree(content: Record<string, unknown>): ThinkingNode | null {
  if (!('title' in content) && !('children' in content)) {
    // A thought chain sent as Markdown text (the seed's reader accepts both).
    const text = str(content.text);
    return text ? { title: 'Thinking', status: typeof content.status === 'number' ? content.status : null, type: 'thinking', description: '', items: [text.slice(-500)], children: [] } : null;
  }
  const node = (v: Record<string, unknown>): ThinkingNode => {
    const inner = isObj(v.content) ? v.content : {};
    const queries = Array.isArray(inner.queries) ? inner.queries : [];
    const items = [
      ...queries.flatMap((q) => {
        const query = isObj(q) ? str(q.query) : str(q);
        const found = isObj(q) ? str(q.retrieved) : '';
        return query ? [`Query: ${query}${found ? ` (${found})` : ''}`] : [];
      }),
      ...(str(inner.result) ? [str(inner.result)] : []),
    ];
    return {
      title: str(v.title),
      status: typeof v.status === 'number' ? v.status : null,
      type: str(v.type),
      description: textOf(v.description),
      items,
      children: (Array.isArray(v.children) ? v.children : []).filter(isObj).map(node),
    };
  };
  return node(content);
}

function yearOf(r: Record<string, unknown>): number | null {
  for (const key of ['year', 'publicationYear', 'publishYear', 'pubYear', 'publicationDate', 'publishDate', 'pubDate', 'coverDate', 'date']) {
    const m = /\b(1[6-9]\d\d|20\d\d)\b/.exec(str(r[key]));
    if (m) return Number(m[1]);
  }
  return null;
}

function authorsOf(v: unknown): string[] {
  if (typeof v === 'string') return v.split(/\s*[,;]\s*/).filter(Boolean);
  if (!Array.isArray(v)) return [];
  return v.map((a) => (isObj(a) ? str(a.name) || [str(a.given), str(a.family)].filter(Boolean).join(' ') : str(a))).filter(Boolean);
}

/** One resource of the map as a reference (untrusted fields read defensively). */
export function referenceOf(resourceId: string, item: Record<string, unknown>, resource: Record<string, unknown> | undefined, receipt: Receipt | undefined): NavigatorReference {
  const r = resource ?? {};
  const type = str(r['@bohrium-type']) || str(item['@bohrium-type']);
  const kind = type.endsWith('/paper') ? 'paper' : type.endsWith('/web') ? 'web' : type || 'unknown';
  const doi = str(r.doi) || (/^@bohrium:doi:(.+)$/.exec(resourceId)?.[1] ?? '');
  return {
    resourceId,
    kind,
    title: str(r.title) || str(r.titleEn) || str(r.titleZh) || resourceId,
    authors: authorsOf(r.authors),
    journal: str(r.journal) || str(r.venue),
    year: yearOf(r),
    doi,
    url: str(r.url) || str(r.link) || (doi ? `https://doi.org/${doi}` : ''),
    source: str(r.source) || str(r.site),
    snippet: str(r.abstract) || str(r.snippet),
    receipt: receipt ?? null,
  };
}

const textOfMain = (main: ReturnType<typeof messagesOf>) =>
  main
    .filter((m) => m.subType !== CARDS && (m.subType === MARKDOWN || typeof m.content.text === 'string'))
    .map((m) => str(m.content.text))
    .filter(Boolean)
    .join('\n\n');

/** Only the Markdown answer text of a merged answer (cheap: no references read). */
export function answerText(answer: Snp2Answer): string {
  return textOfMain(messagesOf(answer, 'main'));
}

/** Reads one merged answer: its text, thought tree, references, results and suggestions. */
export function readAnswer(answer: Snp2Answer, receipts: ReadonlyMap<string, Receipt>): NavigatorAnswer {
  const main = messagesOf(answer, 'main');
  const text = textOfMain(main);
  const resources: Record<string, Record<string, unknown>> = {};
  for (const m of main) {
    const map = isObj(m.content.data) ? m.content.data.resourceMap : undefined;
    if (isObj(map)) for (const [id, r] of Object.entries(map)) if (isObj(r)) resources[id] = r;
  }
  const tabs = messagesOf(answer, 'sider').flatMap((m) => (Array.isArray(m.content.tabs) ? m.content.tabs.filter(isObj) : []));
  const tab = (id: string) => {
    // Each resource once (its first place), by a set: a tab can list hundreds.
    const seen = new Set<string>();
    return tabs
      .filter((t) => t.id === id)
      .flatMap((t) => (Array.isArray(t.items) ? t.items.filter(isObj) : []))
      .flatMap((item) => {
        const rid = str(item.resourceId);
        if (!rid || seen.has(rid)) return [];
        seen.add(rid);
        return [referenceOf(rid, item, resources[rid], receipts.get(rid))];
      });
  };
  const pre = messagesOf(answer, 'preprocessor');
  // The tree message is the one with a title or children; a Markdown thought chain otherwise.
  const treeMessage = pre.find((m) => 'title' in m.content || 'children' in m.content) ?? pre[0];
  const suggestions = messagesOf(answer, 'postprocessor').flatMap((m) => {
    const list = Array.isArray(m.content.data) ? m.content.data : Array.isArray(m.content.questions) ? m.content.questions : [];
    return list.map((q) => (isObj(q) ? str(q.query) || str(q.text) || str(q.title) : str(q))).filter(Boolean);
  });
  const failedMessage = main.some((m) => m.content.status === 2);
  const status: AnswerStatus = answer.lifecycle === 'error' || failedMessage ? 'failed' : answer.lifecycle === 'finish' ? 'complete' : 'incomplete';
  return {
    answerId: answer.answerId,
    status,
    error: answer.error ?? (failedMessage ? 'the navigator marked the answer as failed (content.status 2)' : null),
    text,
    thinking: treeMessage ? thinkingTree(treeMessage.content) : null,
    used: tab('used'),
    all: tab('all'),
    suggestions: [...new Set(suggestions)],
  };
}
