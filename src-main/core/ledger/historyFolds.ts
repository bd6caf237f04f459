import { applyChunksNotingTurns, FOLD_VERSION, foldStateAt, type FoldState } from '../../../src-preload/contract/fold';
import { chunksOfPage, type FoldedHistory } from '../../../src-preload/contract/chunkPage';
import type { Db } from './database';
import type { EventLog } from './eventLog';

interface CatchUp {
  /** Chunks came in while it ran: it goes round once more. */
  again: boolean;
  /** The session was deleted meanwhile. */
  dropped: boolean;
  done: Promise<void>;
}

/** Chunks folded per step of a catch-up; the main thread gets a turn between steps. */
const CATCH_UP_PAGE = 500;

/**
 * A session's history folded once and stored (`history_folds`), so that opening a long
 * session reads its messages instead of folding every chunk again: the fold of 100k chunks
 * is paid once, in steps, after the runs that streamed them, not at every open.
 *
 * Derived from `stream_events`, never the truth. A segment is a user turn: the chunks from
 * its `user-message` (or seq 1) to the chunk before the next one (contract/fold.ts
 * `TurnStart`), so the chunks after it fold alone from `foldStateAt(to_seq)`, and a session
 * opened at a turn (`session.open`'s tail) finds its earlier turns stored whole. Stored
 * segments from seq 1 on, then the chunks after them, fold to exactly what folding every
 * chunk gives (tests pin it). Chunks are append-only and keep their seqs, so a segment never
 * goes stale; one folded by another `FOLD_VERSION` is not read, and is deleted when this
 * version stores the session's first segments. Segments that do not join
 * up (two processes folding at once) are read only as far as they join. The last turn is
 * stored once the next one starts.
 */
export class HistoryFolds {
  private readonly q;
  /** Sessions being caught up, and whether chunks came in meanwhile (then it goes round again). */
  private readonly running = new Map<string, CatchUp>();

  constructor(
    private readonly db: Db,
    private readonly events: EventLog,
    private readonly version = FOLD_VERSION,
  ) {
    this.q = {
      segments: db.prepare('SELECT from_seq, to_seq, messages FROM history_folds WHERE session_id = ? AND fold_version = ? AND to_seq < ? ORDER BY from_seq').raw(),
      spans: db.prepare('SELECT from_seq, to_seq FROM history_folds WHERE session_id = ? AND fold_version = ? ORDER BY from_seq').raw(),
      insert: db.prepare('INSERT OR IGNORE INTO history_folds (session_id, fold_version, from_seq, to_seq, messages) VALUES (?, ?, ?, ?, ?)'),
      otherVersions: db.prepare('DELETE FROM history_folds WHERE session_id = ? AND fold_version <> ?'),
      live: db.prepare('SELECT 1 FROM sessions WHERE id = ? AND deleted_at IS NULL').pluck(),
    };
  }

  /**
   * The stored messages of the session's chunks 1..`throughSeq`, the longest stretch of
   * joined segments that ends before `beforeSeq` (`throughSeq` 0 and `[]` when none is).
   */
  read(sessionId: string, beforeSeq: number): FoldedHistory {
    const rows = this.q.segments.all(sessionId, this.version, beforeSeq) as [number, number, string][];
    const parts: string[] = [];
    let through = 0;
    for (const [, to, messages] of joinedFromStart(rows)) {
      if (messages.length > 2) parts.push(messages.slice(1, -1));
      through = to;
    }
    return { sessionId, throughSeq: through, messages: `[${parts.join(',')}]` };
  }

  /**
   * The stored turns as a fold state to fold the later chunks on from (a run's history:
   * HistoryCache), or null when none is stored or it does not parse.
   */
  storedState(sessionId: string): { lastSeq: number; state: FoldState } | null {
    const folded = this.read(sessionId, Number.MAX_SAFE_INTEGER);
    if (!folded.throughSeq) return null;
    try {
      const messages = JSON.parse(folded.messages) as FoldState['messages'];
      return Array.isArray(messages) ? { lastSeq: folded.throughSeq, state: { ...foldStateAt(folded.throughSeq), messages } } : null;
    } catch {
      return null;
    }
  }

  /** How far the joined segments from seq 1 reach. */
  coveredThrough(sessionId: string): number {
    let through = 0;
    for (const [, to] of joinedFromStart(this.q.spans.all(sessionId, this.version) as [number, number][])) through = to;
    return through;
  }

  /**
   * Folds the chunks stored since the last segment and stores each turn that has ended (the
   * next turn has started) as a segment. `turnStart`: the seq of a user turn just stored,
   * when the caller knows one (the session runner at run start). Runs in steps of
   * CATCH_UP_PAGE chunks (a few ms each) with a turn of the event loop between them; one
   * catch-up per session at a time (a call meanwhile makes it go round once more). Never
   * throws: a chunk that is not JSON, or a gap in the seqs, stops it (opening the session
   * folds the chunks and reports the damage).
   */
  catchUp(sessionId: string, turnStart?: number): Promise<void> {
    const running = this.running.get(sessionId);
    if (running) {
      running.again = true;
      return running.done;
    }
    // Nothing has ended since the last segment (a session's first turn): no step at all.
    if (turnStart !== undefined && turnStart <= 1) return Promise.resolve();
    const entry: CatchUp = { again: false, dropped: false, done: Promise.resolve() };
    entry.done = (async () => {
      try {
        await new Promise<void>((resolve) => setImmediate(resolve)); // not in the caller's turn
        let known = turnStart;
        do {
          entry.again = false;
          await this.foldNewer(sessionId, entry, known);
          known = undefined; // a call meanwhile may have stored a later turn: look it up
        } while (entry.again && !entry.dropped);
      } catch {
        // A cache: a failure leaves the session to be folded from its chunks when opened.
      } finally {
        if (this.running.get(sessionId) === entry) this.running.delete(sessionId);
      }
    })();
    this.running.set(sessionId, entry);
    return entry.done;
  }

  /** The session was deleted: a catch-up under way stops at its next step, and is no longer counted. */
  forget(sessionId: string): void {
    const entry = this.running.get(sessionId);
    if (!entry) return;
    entry.dropped = true;
    this.running.delete(sessionId);
  }

  /** Sessions with a catch-up under way (diagnostics and the lifecycle test). */
  get catchingUp(): number {
    return this.running.size;
  }

  private async foldNewer(sessionId: string, entry: CatchUp, turnStart: number | undefined): Promise<void> {
    let through = this.coveredThrough(sessionId);
    // Nothing stored by this version yet: what another version stored is never read again
    // (deleted with the first segments).
    let dropOthers = through === 0;
    // The chunks from the last turn's start on are a turn that has not ended: not folded yet
    // (a long streamed answer would be folded again at every call for nothing).
    const end = turnStart ?? this.events.lastTurnStart(sessionId);
    if (end <= through + 1) return;
    let state: FoldState = foldStateAt(through);
    let next = through + 1;
    for (;;) {
      if (entry.dropped || !this.q.live.get(sessionId)) return;
      const page = this.events.readTextBetween(sessionId, next - 1, end, CATCH_UP_PAGE);
      if (!page.seqs.length) return;
      for (const seq of page.seqs) if (seq !== next++) return;
      // Throws on a damaged page (caught by catchUp): the session is then folded from its chunks when opened.
      const chunks = chunksOfPage({ sessionId, ...page, complete: false });
      const { state: after, turns } = applyChunksNotingTurns(state, chunks);
      // The messages before a turn's start are final: each finished turn is a segment.
      let kept = 0;
      const segments: [number, number, string][] = [];
      for (const turn of turns) {
        if (turn.applied === through) continue; // the first chunk folded starts a turn: nothing before it
        segments.push([through + 1, turn.applied, JSON.stringify(after.messages.slice(kept, turn.messages))]);
        through = turn.applied;
        kept = turn.messages;
      }
      // Read up to the last turn's start: the turn before it has ended too.
      const done = next >= end || page.seqs.length < CATCH_UP_PAGE;
      if (next === end && through < end - 1) {
        segments.push([through + 1, end - 1, JSON.stringify(after.messages.slice(kept))]);
        through = end - 1;
        kept = after.messages.length;
      }
      if (segments.length) {
        this.db.transaction(() => {
          if (dropOthers) this.q.otherVersions.run(sessionId, this.version);
          for (const [from, to, messages] of segments) this.q.insert.run(sessionId, this.version, from, to, messages);
        })();
        dropOthers = false;
      }
      state = kept ? { ...after, messages: after.messages.slice(kept) } : after;
      if (done) return;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }
}

/**
 * Segment rows (`[from_seq, to_seq, ...]`, in `from_seq` order) as far as they join up from
 * seq 1; a row over chunks already covered is skipped (another process wrote a segment over
 * the same chunks).
 */
function* joinedFromStart<R extends [number, number, ...unknown[]]>(rows: R[]): Generator<R> {
  let through = 0;
  for (const row of rows) {
    if (row[0] <= through) continue;
    if (row[0] !== through + 1) return;
    through = row[1];
    yield row;
  }
}
