import type { StoredChunk, StreamChunk } from '../../../src-preload/contract/stream';
import type { Db } from './database';
import { SessionsRepo } from './sessionsRepo';
import { StreamReads, type ChunkText } from './streamReads';
import { notFound } from './util';

export interface EventLogOptions {
  /** How long the first queued chunk waits for company before the batch commits. */
  groupCommitMs?: number;
  /** A batch this large commits at once, without waiting. */
  maxBatch?: number;
  /**
   * How long a `lazy` deferred write (rows already durable elsewhere, no one waiting) waits
   * for company before it commits, when nothing else commits it sooner.
   */
  lazyCommitMs?: number;
  /** Called after each committed batch (e.g. to touch the sessions' updated_at). */
  onCommit?: (sessions: Map<string, number>) => void;
  /** The ledger's sessions, whose `exists` says whether a chunk's session may be appended to (default: a repo over the same database). */
  sessions?: Pick<SessionsRepo, 'exists'>;
}

interface Pending {
  event: StoredChunk;
  /** The row's JSON; null for a mergeable delta, whose text may still grow (written at flush). */
  json: string | null;
}

/** How long a `lazy` write waits for company by default (EventLogOptions.lazyCommitMs). */
export const LAZY_COMMIT_MS = 25;

/** A merged delta row holds at most this many characters; the next delta starts a new row. */
export const MERGED_DELTA_MAX_CHARS = 64 * 1024;

/** A text or reasoning delta with nothing but its block id and text: consecutive ones of a block may share a row. */
type MergeableDelta = { type: 'text-delta' | 'reasoning-delta'; id: string; delta: string };

function mergeableDelta(chunk: StreamChunk): MergeableDelta | null {
  if (chunk.type !== 'text-delta' && chunk.type !== 'reasoning-delta') return null;
  const c = chunk as unknown as Record<string, unknown>;
  if (typeof c.id !== 'string' || typeof c.delta !== 'string') return null;
  // Any other field (providerMetadata) keeps the chunk as it is.
  for (const key in c) if (key !== 'type' && key !== 'id' && key !== 'delta') return null;
  return { type: chunk.type, id: c.id, delta: c.delta };
}

/** The promise every chunk of one batch shares: one allocation per batch, not per chunk. */
interface BatchDurable {
  promise: Promise<void>;
  resolve: () => void;
  reject: (e: unknown) => void;
}

/** Rows per multi-row INSERT: one statement step for many rows costs less than one per row. */
const ROWS_PER_INSERT = 16;
const INSERT_COLUMNS = 'INSERT INTO stream_events (session_id, seq, run_id, type, chunk, at) VALUES ';

/** Another ledger write (an audit row) that rides in the next group commit. */
interface DeferredWrite {
  write: () => void;
  resolve: () => void;
  reject: (e: unknown) => void;
}

export interface Enqueued {
  /**
   * The chunk with its assigned seq; broadcast it once `durable` resolves. With
   * `mergeDeltas`, a merged delta returns the queued event it joined (its text now
   * includes this one) and `merged` is true: that event is broadcast once, not again.
   */
  event: StoredChunk;
  merged: boolean;
  /**
   * Resolves when the batch holding the chunk is committed (durable at the ledger's level,
   * see README.md), rejects if it failed. Chunks of one batch share the same promise object.
   */
  durable: Promise<void>;
}

/**
 * The append-only event log of a session (`stream_events`). Two ways in:
 *  - `appendSync`: one chunk, one transaction, durable when it returns;
 *  - `enqueue`/`append`: group commit. The seq is assigned at once (in order, from a
 *    per-session counter: this process is the only writer, through one connection), the
 *    row waits at most `groupCommitMs` with the chunks that follow, and the whole batch is
 *    committed in one transaction, so one fsync covers many chunks.
 * Reads flush the queue first, so a reader always sees what was appended before it.
 */
export class EventLog {
  private readonly q;
  private readonly lastSeq = new Map<string, number>();
  private readonly sessions: Pick<SessionsRepo, 'exists'>;
  private readonly knownRuns = new Map<string, string>();
  private queue: Pending[] = [];
  /** Per session, its last queued row when that row is a mergeable delta (cleared at each commit). */
  private readonly openDelta = new Map<string, Pending>();
  private batch: BatchDurable | null = null;
  private writes: DeferredWrite[] = [];
  private timer: NodeJS.Timeout | null = null;
  private immediate: NodeJS.Immediate | null = null;
  private lazyTimer: NodeJS.Timeout | null = null;
  private readonly groupCommitMs: number;
  private readonly lazyCommitMs: number;
  /** Runs a function in a savepoint (inside the batch's transaction); built once, not per write. */
  private readonly inSavepoint: (fn: () => void) => void;
  private readonly maxBatch: number;
  private readonly reads: StreamReads;

  constructor(
    private readonly db: Db,
    private readonly options: EventLogOptions = {},
  ) {
    this.groupCommitMs = options.groupCommitMs ?? 2;
    this.maxBatch = options.maxBatch ?? 4096;
    this.lazyCommitMs = options.lazyCommitMs ?? LAZY_COMMIT_MS;
    this.inSavepoint = db.transaction((fn: () => void) => fn());
    this.reads = new StreamReads(db);
    this.sessions = options.sessions ?? new SessionsRepo(db);
    this.q = {
      insert: db.prepare(`${INSERT_COLUMNS}(?, ?, ?, ?, ?, ?)`),
      insertMany: db.prepare(INSERT_COLUMNS + Array<string>(ROWS_PER_INSERT).fill('(?, ?, ?, ?, ?, ?)').join(', ')),
      runSession: db.prepare('SELECT session_id FROM runs WHERE id = ?').pluck(),
    };
  }

  /** Appends one chunk in its own transaction (after any queued chunks); durable on return. */
  appendSync(sessionId: string, runId: string | null, chunk: StreamChunk): StoredChunk {
    const pending = this.prepare(sessionId, runId, chunk);
    this.queue.push(pending);
    this.flush();
    return pending.event;
  }

  /**
   * Queues one chunk for the next group commit. `mergeDeltas`: a text or reasoning delta
   * that follows a queued delta of the same session, run and block joins that row instead
   * of taking one of its own (the fold concatenates deltas, so "a" + "b" reads as "ab";
   * the row is written, and broadcast, with the whole text). Rows only merge while they
   * wait for the same commit: a slow stream keeps a row per delta, a flood of deltas costs
   * a row per block per commit.
   * `lazy`: the chunk waits up to `lazyCommitMs` instead of `groupCommitMs` unless another
   * commit takes it sooner (a host call's activity note: a cell's burst of calls then costs
   * one transaction per `lazyCommitMs`, not one per `groupCommitMs`; it is still published
   * only once committed, in seq order).
   */
  enqueue(sessionId: string, runId: string | null, chunk: StreamChunk, options: { mergeDeltas?: boolean; lazy?: boolean } = {}): Enqueued {
    const delta = options.mergeDeltas ? mergeableDelta(chunk) : null;
    if (delta) {
      const open = this.openDelta.get(sessionId);
      const held = open?.event.chunk as MergeableDelta | undefined;
      if (open && held && open.event.runId === runId && held.type === delta.type && held.id === delta.id && held.delta.length + delta.delta.length <= MERGED_DELTA_MAX_CHARS) {
        held.delta += delta.delta;
        return { event: open.event, durable: this.durable(), merged: true };
      }
    }
    const pending = delta ? this.prepareDelta(sessionId, runId, delta) : this.prepare(sessionId, runId, chunk);
    this.queue.push(pending);
    if (delta) this.openDelta.set(sessionId, pending);
    else this.openDelta.delete(sessionId);
    const durable = this.durable();
    if (this.queue.length >= this.maxBatch) this.flush();
    else if (options.lazy) this.lazyTimer ??= setTimeout(() => this.flushQuietly(), this.lazyCommitMs);
    else this.timer ??= setTimeout(() => this.flushQuietly(), this.groupCommitMs);
    return { event: pending.event, durable, merged: false };
  }

  /** Group-committed append: resolves with the stored chunk once it is durable. */
  async append(sessionId: string, runId: string | null, chunk: StreamChunk): Promise<StoredChunk> {
    const { event, durable } = this.enqueue(sessionId, runId, chunk);
    await durable;
    return event;
  }

  /**
   * Runs `write` (statements of other repositories, e.g. audit rows) inside the next group
   * commit; resolves once it is committed. A write that throws is rolled back alone (a
   * savepoint) and rejects only its own promise; the rest of the batch commits.
   * `when`: `turn` (default) commits at the end of this turn of the event loop, since a
   * caller waits for it; `soon` waits up to `groupCommitMs` for company, as a chunk does;
   * `lazy` waits up to `lazyCommitMs` (rows already durable elsewhere, the audit journal's,
   * that no caller waits on: a cell's serial host calls then share one transaction per
   * `lazyCommitMs` instead of paying one every `groupCommitMs`; readers see them because
   * every read commits the queue first); `ride` schedules nothing and
   * goes with the next commit made for any other reason (a `turn`, `soon` or `lazy` write, chunks,
   * a read, a synchronous write, close): for a row no one waits on by itself, such as the
   * begin row of a read-only host call, whose outcome row follows and then commits both at once.
   */
  defer(write: () => void, when: 'turn' | 'soon' | 'lazy' | 'ride' = 'turn'): Promise<void> {
    const done = new Promise<void>((resolve, reject) => this.writes.push({ write, resolve, reject }));
    // Committed at the end of this turn of the event loop, with whatever else arrived in it:
    // a deferred write has a caller waiting for it (a cell's host call), so it does not wait
    // `groupCommitMs` for company; queued chunks ride along.
    if (this.queue.length + this.writes.length >= this.maxBatch) this.flushQuietly();
    else if (when === 'turn') this.immediate ??= setImmediate(() => this.flushQuietly());
    else if (when === 'soon') this.timer ??= setTimeout(() => this.flushQuietly(), this.groupCommitMs);
    else if (when === 'lazy') this.lazyTimer ??= setTimeout(() => this.flushQuietly(), this.lazyCommitMs);
    return done;
  }

  /** Deferred writes waiting for this connection's next commit (diagnostics and tests). */
  get pendingWrites(): number {
    return this.writes.length;
  }

  /** Resolves when everything queued so far is committed. */
  durable(): Promise<void> {
    if (!this.queue.length) return Promise.resolve();
    if (!this.batch) {
      let resolve!: () => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<void>((res, rej) => ((resolve = res), (reject = rej)));
      // A failed batch may have no one listening (a caller that only wanted the seq).
      promise.catch(() => undefined);
      this.batch = { promise, resolve, reject };
    }
    return this.batch.promise;
  }

  /** Commits the queue now, in one transaction. Throws (and rejects the waiters) if it fails. */
  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (this.immediate) clearImmediate(this.immediate);
    this.immediate = null;
    if (this.lazyTimer) clearTimeout(this.lazyTimer);
    this.lazyTimer = null;
    const batch = this.queue;
    const durable = this.batch;
    const writes = this.writes;
    if (!batch.length && !writes.length) return;
    this.queue = [];
    this.openDelta.clear();
    this.batch = null;
    this.writes = [];
    const touched = new Map<string, number>();
    const failed = new Map<DeferredWrite, unknown>();
    try {
      this.db.transaction(() => {
        this.insert(batch);
        for (const { event } of batch) touched.set(event.sessionId, event.at);
        this.applyWrites(writes, failed);
        if (touched.size) this.options.onCommit?.(touched);
      }).immediate();
    } catch (error) {
      // The counters ran ahead of the table; reload them from the database next time.
      this.lastSeq.clear();
      durable?.reject(error);
      for (const w of writes) w.reject(error);
      throw error;
    }
    durable?.resolve();
    for (const w of writes) {
      if (failed.has(w)) w.reject(failed.get(w));
      else w.resolve();
    }
  }

  /**
   * Runs the deferred writes inside the batch's transaction. All of them in one savepoint
   * first (a savepoint and its wrapper per write cost more than most writes); if one throws,
   * that savepoint rolls back and each write runs again in its own, so only the failing
   * one is lost (the writes are statements over their own arguments: running one again
   * after a rollback is running it once).
   */
  private applyWrites(writes: DeferredWrite[], failed: Map<DeferredWrite, unknown>): void {
    if (!writes.length) return;
    try {
      this.inSavepoint(() => {
        for (const w of writes) w.write();
      });
      return;
    } catch {
      // one of them failed: each alone, below
    }
    for (const w of writes) {
      try {
        this.inSavepoint(w.write);
      } catch (error) {
        failed.set(w, error);
      }
    }
  }

  /** Inserts the rows of a batch, ROWS_PER_INSERT at a time, the rest one by one. */
  private insert(batch: Pending[]): void {
    let i = 0;
    if (batch.length >= ROWS_PER_INSERT) {
      const args: unknown[] = new Array(ROWS_PER_INSERT * 6);
      for (; i + ROWS_PER_INSERT <= batch.length; i += ROWS_PER_INSERT) {
        for (let j = 0; j < ROWS_PER_INSERT; j++) {
          const { event } = batch[i + j]!;
          const json = batch[i + j]!.json ?? JSON.stringify(event.chunk);
          const k = j * 6;
          args[k] = event.sessionId;
          args[k + 1] = event.seq;
          args[k + 2] = event.runId;
          args[k + 3] = event.chunk.type;
          args[k + 4] = json;
          args[k + 5] = event.at;
        }
        this.q.insertMany.run(args);
      }
    }
    for (; i < batch.length; i++) {
      const { event } = batch[i]!;
      this.q.insert.run(event.sessionId, event.seq, event.runId, event.chunk.type, batch[i]!.json ?? JSON.stringify(event.chunk), event.at);
    }
  }

  private flushQuietly(): void {
    try {
      this.flush();
    } catch {
      // Reported to every waiter through its rejected `durable` promise.
    }
  }

  lastSeqOf(sessionId: string): number {
    this.flush();
    return this.reads.maxSeq(sessionId);
  }

  /** Committed chunks of a session with seq > afterSeq, in order. */
  readFrom(sessionId: string, afterSeq = 0, limit = -1): StoredChunk[] {
    this.flush();
    return this.reads.from(sessionId, afterSeq, limit);
  }

  /**
   * The chunks after `afterSeq` and before `beforeSeq`, at most `limit`, as the JSON text
   * the ledger stores, nothing parsed: their seqs, their runs, and `lines`, the chunks'
   * text one per line in seq order ('' for none).
   */
  readTextBetween(sessionId: string, afterSeq: number, beforeSeq: number, limit: number): ChunkText {
    this.flush();
    return this.reads.textBetween(sessionId, afterSeq, beforeSeq, limit);
  }

  /** `readTextBetween` a row at a time. */
  readTextRows(sessionId: string, afterSeq: number, beforeSeq: number, limit: number): ChunkText {
    return this.reads.textRows(sessionId, afterSeq, beforeSeq, limit);
  }

  readRun(sessionId: string, runId: string): StoredChunk[] {
    this.flush();
    return this.reads.run(sessionId, runId);
  }

  /**
   * Where to open a session at its end: the seq of the latest user turn that leaves at least
   * `minChunks` chunks from it to the end (1 when the session is shorter, or has no such turn).
   */
  tailStart(sessionId: string, minChunks: number): number {
    const bound = this.lastSeqOf(sessionId) - minChunks + 1;
    return bound <= 1 ? 1 : (this.reads.turnAtOrBefore(sessionId, bound) ?? 1);
  }

  /** The seq of the session's last `user-message` chunk, where its last turn starts (0 when it has none). */
  lastTurnStart(sessionId: string): number {
    const last = this.lastSeqOf(sessionId);
    return last ? (this.reads.turnAtOrBefore(sessionId, last) ?? 0) : 0;
  }

  /** Drops the seq counters (an enclosing transaction rolled back rows they counted). */
  resetCounters(): void {
    this.lastSeq.clear();
  }

  /** Forgets cached ids and the seq counter of a session (it was deleted: nothing is appended to it again). */
  forget(sessionId: string): void {
    this.lastSeq.delete(sessionId);
    for (const [runId, owner] of this.knownRuns) if (owner === sessionId) this.knownRuns.delete(runId);
  }

  /** Forgets a finished run's cached owner (a later append for it looks the run up again). */
  forgetRun(runId: string): void {
    this.knownRuns.delete(runId);
  }

  /** How many entries the per-session and per-run caches hold (diagnostics and the lifecycle test). */
  sizes(): { seqCounters: number; runs: number } {
    return { seqCounters: this.lastSeq.size, runs: this.knownRuns.size };
  }

  private prepare(sessionId: string, runId: string | null, chunk: StreamChunk): Pending {
    if (typeof chunk !== 'object' || chunk === null || typeof chunk.type !== 'string') {
      throw new TypeError(`A stream chunk must be an object with a string "type"; got ${JSON.stringify(chunk)}`);
    }
    const seq = this.nextSeq(sessionId, runId);
    const json = JSON.stringify(chunk);
    // Stored chunks are read back from JSON; the live copy must be identical to them.
    const stored = JSON.parse(json) as StreamChunk;
    return { event: { sessionId, seq, runId, chunk: stored, at: Date.now() }, json };
  }

  /** A delta of strings only is its own JSON round trip: the copy is built directly, its JSON at commit. */
  private prepareDelta(sessionId: string, runId: string | null, delta: MergeableDelta): Pending {
    const seq = this.nextSeq(sessionId, runId);
    return { event: { sessionId, seq, runId, chunk: delta as StreamChunk, at: Date.now() }, json: null };
  }

  /** Checks the session (and run) exist, then assigns the session's next seq. */
  private nextSeq(sessionId: string, runId: string | null): number {
    if (!this.sessions.exists(sessionId)) throw notFound('session', sessionId, 'Create it with session.create first.');
    if (runId !== null && this.knownRuns.get(runId) !== sessionId) {
      const owner = this.q.runSession.get(runId) as string | undefined;
      if (owner !== sessionId) throw notFound('run', runId, `in session ${sessionId}; append events with the run that produced them.`);
      this.knownRuns.set(runId, sessionId);
    }
    let seq = this.lastSeq.get(sessionId);
    if (seq === undefined) {
      seq = this.reads.maxSeq(sessionId);
      // Chunks still queued for this session are above the committed maximum.
      for (const p of this.queue) if (p.event.sessionId === sessionId && p.event.seq > seq) seq = p.event.seq;
    }
    seq += 1;
    this.lastSeq.set(sessionId, seq);
    return seq;
  }
}
