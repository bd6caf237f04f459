import type { LlmMessage, LlmTool } from '../llm/types';
import { startBpeThread, type ThreadCounter } from './bpeThread/bpeCounter';
import { loadBpe } from './bpeThread/loadBpe';
import type { BpeEncoding } from './bpeThread/protocol';

/**
 * Token counts for deciding when to compact. OpenAI-family models get the real BPE
 * (gpt-tokenizer, o200k_base; cl100k_base for gpt-4/3.5); every other family gets a
 * calibrated estimate that errs high, since an overestimate costs an early compaction
 * and an underestimate costs a refused request.
 */
export interface TokenCounter {
  /** `bpe:o200k_base`, `bpe:cl100k_base` or `estimate`. */
  readonly method: string;
  count(text: string): number;
}

const CJK = /[\u3000-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef]/u;

/** One whitespace-free run, piece by piece: short words are one token, long ones split. */
function wordTokens(run: string): number {
  let n = 0;
  for (const [w] of run.matchAll(/[A-Za-z]+|[0-9]+|[\x21-\x7e]|[^\p{ASCII}]/gu)) {
    const c = w.charCodeAt(0);
    if ((c >= 65 && c <= 90) || (c >= 97 && c <= 122)) n += w.length <= 7 ? 1 : Math.ceil(w.length / 4);
    else if (c >= 48 && c <= 57) n += Math.ceil(w.length / 3);
    else if (c < 128) n += 0.75;
    else if (CJK.test(w)) n += 1.1;
    else n += 0.8;
  }
  return n;
}

/**
 * The calibrated estimate. Measured against o200k_base on English prose, TypeScript,
 * Python, JSON, a lock file, Chinese prose, a protein sequence, hex, base64 and CSV: it
 * lands at 1.0 to 1.6 times the real count, never more than a few
 * percent under. Long dense runs (hashes, base64, sequences) tokenize at about 1.5
 * characters a token in every BPE, so they are counted that way.
 */
export function estimateTokens(text: string): number {
  let n = 0;
  for (const run of text.split(/(\s+)/)) {
    if (!run) continue;
    if (/^\s/.test(run)) {
      n += run.includes('\n') ? 1 : run.length > 1 ? 0.5 : 0;
      continue;
    }
    const words = wordTokens(run);
    // Dense: long, ASCII, almost no punctuation (hashes, base64, sequences); minified JSON is not.
    const dense = run.length > 24 && !/[^\p{ASCII}]/u.test(run) && (run.match(/[^A-Za-z0-9]/g)?.length ?? 0) < run.length / 10;
    n += dense ? Math.max(words, run.length / 1.5) : words;
  }
  return Math.ceil(n);
}

/** Texts at least this long are counted once and remembered (the system prompt, tool schemas, old turns). */
const REMEMBER_FROM = 200;
/** How many characters of counted text a counter keeps, oldest forgotten first (about 4 MB). */
const REMEMBERED_CHARS = 2_000_000;

/**
 * `count` that remembers its answers for long texts: every turn counts the same system
 * prompt, tool schemas and earlier messages again, and a BPE pass over them took
 * milliseconds of the main thread at each run's start.
 */
function remembering(count: (text: string) => number, from = REMEMBER_FROM): (text: string) => number {
  const known = new Map<string, number>();
  let chars = 0;
  return (text) => {
    if (text.length < from || text.length > REMEMBERED_CHARS / 8) return count(text);
    const hit = known.get(text);
    if (hit !== undefined) return hit;
    const n = count(text);
    for (const old of known.keys()) {
      if (chars + text.length <= REMEMBERED_CHARS) break;
      known.delete(old);
      chars -= old.length;
    }
    known.set(text, n);
    chars += text.length;
    return n;
  };
}

const ESTIMATE: TokenCounter = { method: 'estimate', count: remembering(estimateTokens) };

/** Which BPE an OpenAI model uses, or null when the model is not OpenAI's. */
export function openAiEncoding(providerId: string, model: string): BpeEncoding | null {
  const id = model.toLowerCase().replace(/^openai\//, '');
  if (/^(gpt-4o|gpt-4\.1|gpt-4\.5|gpt-5|o[1-9]|chatgpt|gpt-oss)/.test(id)) return 'o200k_base';
  if (/^(gpt-4|gpt-3\.5)/.test(id)) return 'cl100k_base';
  // Any other model the OpenAI endpoint serves is a current one.
  return providerId === 'openai' ? 'o200k_base' : null;
}

const loaded = new Map<string, Promise<TokenCounter>>();

/**
 * The counter for a provider's model. The BPE tables are loaded on first use (a few MB,
 * so never at startup), on a thread of their own (bpeThread/bpeCounter.ts) so the main
 * thread never blocks for the load; if that thread cannot start they are loaded here; if
 * they cannot be loaded the estimate is used, and `method` says so.
 */
export function tokenCounterFor(providerId: string, model: string): Promise<TokenCounter> {
  const encoding = openAiEncoding(providerId, model);
  if (!encoding) return Promise.resolve(ESTIMATE);
  let counter = loaded.get(encoding);
  if (!counter) {
    counter = startBpeThread(encoding).then((thread) => (thread ? threadCounter(encoding, thread) : inProcessCounter(encoding)));
    loaded.set(encoding, counter);
  }
  return counter;
}

/**
 * Counts through the thread, every text remembered (a count there costs a round trip, a
 * lookup here does not). If the thread stops answering, texts are counted with the
 * estimate from then on (it errs high), and `method` says so.
 */
function threadCounter(encoding: BpeEncoding, thread: ThreadCounter): TokenCounter {
  let method = `bpe:${encoding}`;
  const count = remembering((text) => {
    if (!text) return 0;
    const n = thread.count(text);
    if (n !== null) return n;
    method = 'estimate';
    return estimateTokens(text);
  }, 1);
  return {
    get method() {
      return method;
    },
    count,
  };
}

function inProcessCounter(encoding: BpeEncoding): Promise<TokenCounter> {
  return loadBpe(encoding).then(
    (count): TokenCounter => ({ method: `bpe:${encoding}`, count: remembering(count) }),
    () => ESTIMATE,
  );
}

/** Per-message framing (role, separators) every chat wire adds. */
const MESSAGE_OVERHEAD = 4;

/** Tokens of one history message: its text, its tool calls' names and arguments, its framing. */
export function messageTokens(counter: TokenCounter, m: LlmMessage): number {
  let n = MESSAGE_OVERHEAD + counter.count(m.content);
  if (m.role === 'assistant') {
    if (m.reasoning) n += counter.count(m.reasoning);
    for (const c of m.toolCalls ?? []) n += MESSAGE_OVERHEAD + counter.count(c.name) + counter.count(c.rawArguments);
  }
  if (m.role === 'tool') n += counter.count(m.toolName);
  return n;
}

/** Tokens of the tool schemas a request offers, as the OpenAI wire serialises them. */
export function toolTokens(counter: TokenCounter, tools: readonly LlmTool[]): number {
  return tools.reduce((n, t) => n + MESSAGE_OVERHEAD + counter.count(JSON.stringify({ name: t.name, description: t.description ?? '', parameters: t.inputSchema })), 0);
}
