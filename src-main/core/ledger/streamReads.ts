import type { StoredChunk, StreamChunk } from '../../../src-preload/contract/stream';
import type { Db } from './database';

/** A page of chunks as the JSON text the ledger stores: their seqs, their runs, and the chunks one per line. */
export interface ChunkText {
  seqs: number[];
  runIds: (string | null)[];
  lines: string;
}

/** seq, run_id, chunk (JSON), at: the columns of the read statements, in order. */
type RawRow = [number, string | null, string, number];

/**
 * The read side of `stream_events`: committed rows only. EventLog commits its queue before
 * it reads through these, so a reader always sees what was appended before it.
 */
export class StreamReads {
  private readonly q;

  constructor(db: Db) {
    this.q = {
      maxSeq: db.prepare('SELECT COALESCE(MAX(seq), 0) AS seq FROM stream_events WHERE session_id = ?').pluck(),
      // Raw rows (arrays, not objects) of only the columns the reader lacks: opening a
      // session reads 100k of them, and the session id is the query's own argument.
      from: db.prepare('SELECT seq, run_id, chunk, at FROM stream_events WHERE session_id = ? AND seq > ? ORDER BY seq LIMIT ?').raw(),
      // The chunks' stored text, unparsed and joined a line each (`session.earlier` sends it
      // on as it is): one row, not one per chunk (a row costs more to hand to JavaScript than
      // SQLite takes to read it). JSON as the ledger writes it holds no raw newline. The three
      // aggregates see the rows in one order, the subquery's (an ORDER BY inside them would
      // sort the page's text again: twice the time); `textBetween` checks the seqs.
      textBetween: db
        .prepare(
          `SELECT json_group_array(seq), json_group_array(run_id), group_concat(chunk, char(10))
             FROM (SELECT seq, run_id, chunk FROM stream_events WHERE session_id = ? AND seq > ? AND seq < ? ORDER BY seq LIMIT ?)`,
        )
        .raw(),
      textRows: db.prepare('SELECT seq, run_id, chunk FROM stream_events WHERE session_id = ? AND seq > ? AND seq < ? ORDER BY seq LIMIT ?').raw(),
      run: db.prepare('SELECT seq, run_id, chunk, at FROM stream_events WHERE session_id = ? AND run_id = ? ORDER BY seq').raw(),
      // Walks back from a seq to the nearest user turn (the primary key's order, one turn's rows).
      turnAtOrBefore: db
        .prepare(`SELECT seq FROM stream_events WHERE session_id = ? AND seq <= ? AND type = 'user-message' ORDER BY seq DESC LIMIT 1`)
        .pluck(),
    };
  }

  /** The session's highest committed seq (0 for none). */
  maxSeq(sessionId: string): number {
    return this.q.maxSeq.get(sessionId) as number;
  }

  /** Chunks with seq > afterSeq, in order, at most `limit` (-1: all). */
  from(sessionId: string, afterSeq: number, limit: number): StoredChunk[] {
    return toStoredRows(sessionId, this.q.from.all(sessionId, afterSeq, limit) as RawRow[]);
  }

  /** The chunks after `afterSeq` and before `beforeSeq`, at most `limit`, nothing parsed ('' for none). */
  textBetween(sessionId: string, afterSeq: number, beforeSeq: number, limit: number): ChunkText {
    const [seqText, runText, lines] = this.q.textBetween.get(sessionId, afterSeq, beforeSeq, limit) as [string, string, string | null];
    const seqs = JSON.parse(seqText) as number[];
    for (let i = 1; i < seqs.length; i++) {
      // Never seen: SQLite feeds the aggregates in the subquery's order. Should a version not,
      // the rows are read one by one instead of sending a page out of order.
      if (seqs[i]! <= seqs[i - 1]!) return this.textRows(sessionId, afterSeq, beforeSeq, limit);
    }
    return { seqs, runIds: JSON.parse(runText) as (string | null)[], lines: lines ?? '' };
  }

  /** `textBetween` a row at a time. */
  textRows(sessionId: string, afterSeq: number, beforeSeq: number, limit: number): ChunkText {
    const rows = this.q.textRows.all(sessionId, afterSeq, beforeSeq, limit) as [number, string | null, string][];
    return { seqs: rows.map((r) => r[0]), runIds: rows.map((r) => r[1]), lines: rows.map((r) => r[2]).join('\n') };
  }

  /** One run's chunks, in order. */
  run(sessionId: string, runId: string): StoredChunk[] {
    return toStoredRows(sessionId, this.q.run.all(sessionId, runId) as RawRow[]);
  }

  /** The seq of the last `user-message` at or before `seq` (undefined: none). */
  turnAtOrBefore(sessionId: string, seq: number): number | undefined {
    return this.q.turnAtOrBefore.get(sessionId, seq) as number | undefined;
  }
}

function toStoredRows(sessionId: string, rows: RawRow[]): StoredChunk[] {
  const out = new Array<StoredChunk>(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i]!;
    out[i] = { sessionId, seq: r[0], runId: r[1], chunk: JSON.parse(r[2]) as StreamChunk, at: r[3] };
  }
  return out;
}
