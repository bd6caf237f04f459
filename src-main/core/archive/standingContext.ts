import type { TokenCounter } from './tokens';

/**
 * Standing context: what the model must see on every request whatever was compacted
 * (memories, the plan, ...). It is rebuilt from its owners each turn and appended to the
 * system prompt, never put into the history, so a compaction can never summarise it away.
 * Owners (the memory and plan modules) contribute sections through a source.
 */
export interface StandingSection {
  /** A short heading (`Memory`, `Plan`). */
  title: string;
  text: string;
  /** Tokens this section may take at most (it is cut to fit); absent: the shared cap decides. */
  maxTokens?: number;
}

/** Asked before every request of a run; may be async (a ledger read). */
export type StandingContextSource = (sessionId: string, runId: string) => StandingSection[] | Promise<StandingSection[]>;

/** Tokens all standing sections together may take by default. */
export const STANDING_CAP_TOKENS = 2_000;

/** Cuts `text` to at most `tokens` tokens, shrinking until it fits (cheap: a few counts). */
export function fitTokens(counter: TokenCounter, text: string, tokens: number): string {
  if (counter.count(text) <= tokens) return text;
  let chars = Math.max(0, Math.floor(text.length * (tokens / Math.max(1, counter.count(text)))));
  let cut = text.slice(0, chars);
  while (chars > 0 && counter.count(`${cut}\n[… cut to fit the context budget]`) > tokens) {
    chars = Math.floor(chars * 0.8);
    cut = text.slice(0, chars);
  }
  return chars > 0 ? `${cut}\n[… cut to fit the context budget]` : '';
}

/**
 * The sections as one system-prompt block within `capTokens`: each within its own cap, then
 * in order until the shared cap is spent; what does not fit is cut, and says so.
 */
export function renderStanding(sections: readonly StandingSection[], counter: TokenCounter, capTokens = STANDING_CAP_TOKENS): string {
  let left = capTokens;
  const parts: string[] = [];
  for (const s of sections) {
    if (!s.text.trim() || left <= 20) continue;
    const text = fitTokens(counter, `## ${s.title}\n${s.text.trim()}`, Math.min(left, s.maxTokens ?? left));
    if (!text) continue;
    left -= counter.count(text);
    parts.push(text);
  }
  return parts.join('\n\n');
}
