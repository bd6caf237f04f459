import type { StreamChunk } from './stream';

/**
 * Pure and dependency-free (the renderer imports it).
 *
 * A page of a session's stored chunks before the tail it was opened with
 * (`session.earlier`), as the ledger holds them: each chunk is its JSON text, unparsed.
 * Opening a long session reads its whole history; parsing 100k chunks in main and then
 * cloning 100k objects across IPC cost more than the renderer's fold, while text crosses
 * whole and is parsed once, in the renderer (`chunksOfPage`). The page's chunks are one
 * string, a line each: cloning one string costs far less than cloning one per chunk.
 */
export interface ChunkPage {
  sessionId: string;
  seqs: number[];
  runIds: (string | null)[];
  /**
   * The chunks' JSON text in seq order, one per line ('' for none): JSON as the ledger
   * writes it holds no raw newline, so line i is the chunk at seqs[i].
   */
  lines: string;
  /** True once no chunk between the page's last seq and `beforeSeq` is left. */
  complete: boolean;
}

const DAMAGED = 'the ledger file is damaged (restore the data folder from a backup)';

/** The chunks of a `session.earlier` page, parsed; throws, naming the seq, if a stored chunk is not JSON. */
export function chunksOfPage(page: ChunkPage): StreamChunk[] {
  if (!page.seqs.length) return [];
  const texts = page.lines.split('\n');
  if (texts.length !== page.seqs.length) {
    throw new Error(`the stored chunks of session ${page.sessionId} from seq ${page.seqs[0]} to ${page.seqs.at(-1)} are ${page.seqs.length} but read as ${texts.length} lines: ${DAMAGED}`);
  }
  const chunks = new Array<StreamChunk>(texts.length);
  for (let i = 0; i < texts.length; i++) {
    try {
      chunks[i] = JSON.parse(texts[i]!) as StreamChunk;
    } catch {
      throw new Error(`the stored chunk at seq ${page.seqs[i]} of session ${page.sessionId} is not JSON: ${DAMAGED}`);
    }
  }
  return chunks;
}

/**
 * A session's history as stored folded (`session.folded`): the messages of its chunks 1 to
 * `throughSeq` (0: none), as one JSON array text. The chunks after `throughSeq` fold on
 * from `foldStateAt(throughSeq)`; together they give what folding every chunk gives.
 */
export interface FoldedHistory {
  sessionId: string;
  throughSeq: number;
  messages: string;
}
