import type { ChunkPage, FoldedHistory, UIMessage } from '../../../src-preload/contract';
import { chunksOfPage } from '../../../src-preload/contract/chunkPage';
import { applyChunks, foldStateAt, type FoldState } from '../../../src-preload/contract/fold';
import { REPLAY_PAGE } from './replayPage';

/** One `session.earlier` request (the bridge in the app, the router in the benchmark). */
export type EarlierPageFetch = (request: { sessionId: string; afterSeq: number; beforeSeq: number; limit: number }) => Promise<ChunkPage>;
/** One `session.folded` request. */
export type FoldedFetch = (request: { sessionId: string; beforeSeq: number }) => Promise<FoldedHistory>;

/** Where the earlier history comes from: the stored fold as far as it goes (if asked), then chunk pages. */
export interface EarlierSource {
  page: EarlierPageFetch;
  folded?: FoldedFetch;
}

/**
 * The messages of a session's chunks before `beforeSeq` (the tail it was opened with starts
 * there). What the app stored folded (`session.folded`) comes first, parsed once; the chunks
 * after it are read in `session.earlier` pages, each parsed, folded and dropped as it
 * arrives: opening a 100k-chunk session never holds 100k chunk objects at once, so they
 * die young instead of being promoted and copied by the collector. The result equals
 * `fold` of all those chunks (applyChunks in batches equals one fold; a stored fold ends at
 * a closed point, contract/fold.ts `ClosedPoint`). A stored fold that does not parse is
 * not used: the chunks, the ledger's truth, are folded instead.
 * Throws when the ledger's seqs do not run on without a gap up to `beforeSeq - 1`: a
 * history with a hole is one this window cannot trust.
 */
export async function foldEarlier(source: EarlierSource, sessionId: string, beforeSeq: number, pageSize = REPLAY_PAGE): Promise<UIMessage[]> {
  const stored = source.folded && beforeSeq > 1 ? storedMessages(await source.folded({ sessionId, beforeSeq }), beforeSeq) : null;
  let next = (stored?.throughSeq ?? 0) + 1;
  let state: FoldState = foldStateAt(next - 1);
  const incomplete = () => new Error(`the session's history before seq ${beforeSeq} came back incomplete; open it again`);
  const ask = (afterSeq: number) => {
    const asked = source.page({ sessionId, afterSeq, beforeSeq, limit: pageSize });
    asked.catch(() => undefined); // awaited below; a page asked for ahead is not an unhandled rejection if folding fails first
    return asked;
  };
  let asked = next < beforeSeq ? ask(next - 1) : null;
  while (asked) {
    const page = await asked;
    for (const seq of page.seqs) if (seq !== next++) throw incomplete();
    // The next page is asked for before this one is folded: main reads it while the window folds.
    asked = page.complete || page.seqs.length === 0 || next >= beforeSeq ? null : ask(next - 1);
    state = applyChunks(state, chunksOfPage(page));
  }
  if (next !== beforeSeq) throw incomplete();
  const folded = state.messages as UIMessage[];
  return stored?.messages.length ? [...stored.messages, ...folded] : folded;
}

/** The stored fold's messages, or null if it is of no use (none stored, or damaged). */
function storedMessages(stored: FoldedHistory, beforeSeq: number): { throughSeq: number; messages: UIMessage[] } | null {
  const through = stored.throughSeq;
  if (!Number.isInteger(through) || through < 1 || through >= beforeSeq) return null;
  try {
    const messages = JSON.parse(stored.messages) as unknown;
    return Array.isArray(messages) ? { throughSeq: through, messages: messages as UIMessage[] } : null;
  } catch {
    return null;
  }
}
