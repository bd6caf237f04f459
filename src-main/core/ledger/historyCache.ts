import { applyChunks, initialFoldState, type FoldState } from '../../../src-preload/contract/fold';
import type { SessionHistory } from '../../../src-preload/contract/sessions';
import type { StoredChunk } from '../../../src-preload/contract/stream';

/** How many sessions' folded histories are kept (the ones runs start in, the CLI shows, exports read). */
const MAX_SESSIONS = 8;

/**
 * The folded histories of recently used sessions, each brought up to date with only the
 * chunks stored since it was folded (a session first asked for starts from its stored fold). A run starts with its session's history (the
 * conversation before it); folding a long session from its first chunk at every message
 * held the main process for as long as opening it from scratch. The fold never changes a
 * state it returned (copy on write, contract/fold.ts), so a history handed out earlier
 * stays as it was. A deleted session's entry is dropped (`forget`).
 */
export class HistoryCache {
  private readonly folds = new Map<string, { lastSeq: number; state: FoldState }>();

  /** `stored`: the session's turns as stored folded (historyFolds.ts), where a session not kept here starts. */
  history(sessionId: string, readAfter: (afterSeq: number) => StoredChunk[], stored?: () => { lastSeq: number; state: FoldState } | null): SessionHistory {
    const known = this.folds.get(sessionId);
    let entry = known ?? stored?.() ?? { lastSeq: 0, state: initialFoldState };
    const newer = readAfter(entry.lastSeq);
    if (newer.length) entry = { lastSeq: newer[newer.length - 1]!.seq, state: applyChunks(entry.state, newer.map((e) => e.chunk)) };
    // Most recently used last; the oldest goes when there are too many.
    this.folds.delete(sessionId);
    this.folds.set(sessionId, entry);
    if (this.folds.size > MAX_SESSIONS) this.folds.delete(this.folds.keys().next().value!);
    return { sessionId, lastSeq: entry.lastSeq, messages: entry.state.messages as SessionHistory['messages'] };
  }

  forget(sessionId: string): void {
    this.folds.delete(sessionId);
  }

  get size(): number {
    return this.folds.size;
  }
}
