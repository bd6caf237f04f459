import type { ChunkPage, UIMessage } from '../../../src-preload/contract';
import { chunksOfPage } from '../../../src-preload/contract/chunkPage';
import { applyChunks, initialFoldState, type FoldState } from '../../../src-preload/contract/fold';
import { REPLAY_PAGE } from './replayPage';

/** One `session.earlier` request (the bridge in the app, the router in the benchmark). */
export type EarlierPageFetch = (request: { sessionId: string; afterSeq: number; beforeSeq: number; limit: number }) => Promise<ChunkPage>;

/**
 * The messages of a session's chunks before `beforeSeq` (the tail it was opened with starts
 * there), read in `session.earlier` pages. Each page is parsed, folded and dropped as it
 * arrives: opening a 100k-chunk session never holds 100k chunk objects at once, so they
 * die young instead of being promoted and copied by the collector. The result equals
 * `fold` of all those chunks (applyChunks in batches equals one fold).
 * Throws when the ledger's seqs do not run 1, 2, ... up to `beforeSeq - 1`: a history
 * with a hole is one this window cannot trust.
 */
export async function foldEarlier(fetchPage: EarlierPageFetch, sessionId: string, beforeSeq: number, pageSize = REPLAY_PAGE): Promise<UIMessage[]> {
  let state: FoldState = initialFoldState;
  let next = 1;
  const incomplete = () => new Error(`the session's history before seq ${beforeSeq} came back incomplete; open it again`);
  const ask = (afterSeq: number) => {
    const asked = fetchPage({ sessionId, afterSeq, beforeSeq, limit: pageSize });
    asked.catch(() => undefined); // awaited below; a page asked for ahead is not an unhandled rejection if folding fails first
    return asked;
  };
  let asked = beforeSeq > 1 ? ask(0) : null;
  while (asked) {
    const page = await asked;
    for (const seq of page.seqs) if (seq !== next++) throw incomplete();
    // The next page is asked for before this one is folded: main reads it while the window folds.
    asked = page.complete || page.seqs.length === 0 || next >= beforeSeq ? null : ask(next - 1);
    state = applyChunks(state, chunksOfPage(page));
  }
  if (next !== beforeSeq) throw incomplete();
  return state.messages as UIMessage[];
}
