import type { LlmMessage } from '../llm/types';

export interface ContextBudget {
  /** Rough size the history may take, in characters (about 4 per token for English, fewer for Chinese). */
  maxChars: number;
  /** The most recent messages are never shortened (the model needs the latest results whole). */
  keepRecent: number;
}

/** A policy that answers at once, without a model call (tests read its result directly). */
export interface SyncContextPolicy {
  prepare(history: readonly LlmMessage[]): LlmMessage[];
}

export const DEFAULT_CONTEXT_BUDGET: ContextBudget = { maxChars: 240_000, keepRecent: 6 };

const size = (m: LlmMessage) => m.content.length + ('toolCalls' in m && m.toolCalls ? m.toolCalls.reduce((n, c) => n + c.rawArguments.length, 0) : 0);

/**
 * Keeps a long run inside the model's window: when the history is over budget, the
 * bulky middle (tool results and cell output, oldest first) is replaced by a short note;
 * the first message (the question) and the most recent ones stay whole, and the message
 * structure (each tool call answered) is kept, so providers accept it. Nothing is lost:
 * the ledger holds the full text.
 */
export function budgetContextPolicy(budget: ContextBudget = DEFAULT_CONTEXT_BUDGET): SyncContextPolicy {
  return {
    prepare(history) {
      let total = history.reduce((n, m) => n + size(m), 0);
      if (total <= budget.maxChars) return [...history];
      const out = [...history];
      const last = Math.max(1, out.length - budget.keepRecent);
      for (let i = 1; i < last && total > budget.maxChars; i++) {
        const m = out[i]!;
        const bulky = m.role === 'tool' || (m.role === 'user' && m.content.startsWith('Cell result'));
        if (!bulky || m.content.length <= 400) continue;
        // Outside content arrives inside untrusted-data markers; a head cut inside them would
        // leave a block without its closing marker, so such a result keeps no head at all.
        const head = m.content.includes('<<<') ? '' : `${m.content.slice(0, 200)}\n`;
        const note = `${head}[… ${m.content.length - head.length} characters of this earlier result elided to fit the context; the full text is in the session ledger …]`;
        total -= m.content.length - note.length;
        out[i] = { ...m, content: note };
      }
      return out;
    },
  };
}
