import type { StreamChunk } from './stream';

/**
 * Pure and dependency-free (the renderer imports it).
 *
 * A page of a session's stored chunks before the tail it was opened with
 * (`session.earlier`), as the ledger holds them: each chunk is its JSON text, unparsed.
 * Opening a long session reads its whole history; parsing 100k chunks in main and then
 * cloning 100k objects across IPC cost more than the renderer's fold, while strings cross
 * whole and are parsed once, in the renderer (`chunksOfPage`).
 */
export interface ChunkPage {
  sessionId: string;
  seqs: number[];
  runIds: (string | null)[];
  /** The chunks' JSON text, in seq order. */
  chunks: string[];
  /** True once no chunk between the page's last seq and `beforeSeq` is left. */
  complete: boolean;
}

/** The chunks of a `session.earlier` page, parsed; throws, naming the seq, if a stored chunk is not JSON. */
export function chunksOfPage(page: ChunkPage): StreamChunk[] {
  const chunks = new Array<StreamChunk>(page.chunks.length);
  for (let i = 0; i < page.chunks.length; i++) {
    try {
      chunks[i] = JSON.parse(page.chunks[i]!) as StreamChunk;
    } catch {
      throw new Error(`the stored chunk at seq ${page.seqs[i]} of session ${page.sessionId} is not JSON: the ledger file is damaged (restore the data folder from a backup)`);
    }
  }
  return chunks;
}
