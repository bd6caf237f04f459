import type { SessionStreamEvent } from '../../../src-preload/contract/sessions';
import type { StoredChunk, StreamChunk } from '../../../src-preload/contract/stream';
import type { Ledger } from '../ledger/ledger';
import { scrubChunk } from '../security/secrets';

/**
 * "Ledger before publish" for the session runner: every chunk is appended through the
 * ledger's group commit (its seq is assigned at once) and handed to subscribers only once
 * the batch holding it is committed, in seq order, whether it was group-committed or
 * written synchronously (a run's start). No fsync per chunk on the main thread (see
 * src-main/core/ledger/README.md). A batch that fails to commit is never published; each
 * run with a chunk in it fails with that error when it settles.
 */
export class DurablePublisher {
  /** The publication chain: each link publishes one committed batch after every batch before it. Never rejects. */
  private published: Promise<void> = Promise.resolve();
  /** The chunks waiting for the newest group-commit batch: published together when it commits. */
  private pendingBatch: { durable: Promise<void>; events: SessionStreamEvent[] } | null = null;
  /** A group commit that failed, per run: the run fails with it when it settles. */
  private readonly storeFailures = new Map<string, unknown>();

  constructor(
    private readonly ledger: Pick<Ledger, 'events' | 'folds'>,
    private readonly publish: (event: SessionStreamEvent) => void,
  ) {}

  /** Appends a chunk of a run; published once its batch is committed. */
  append(sessionId: string, runId: string, raw: StreamChunk): void {
    // Errors may quote a provider's answer, which may echo the key: scrubbed before storage.
    const chunk = scrubChunk(raw);
    // Text and reasoning deltas that wait for the same commit share a row (EventLog.enqueue).
    // A host call's activity note may wait longer for company: a cell's burst of calls
    // (each answered once its audit is in the journal) then shares one commit per lazyCommitMs.
    const lazy = chunk.type === 'data-host-call';
    const { event, durable, merged } = this.ledger.events.enqueue(sessionId, runId, chunk, { mergeDeltas: true, lazy });
    // A merged delta is already in the batch, in the event it joined: published with it.
    if (merged) return;
    // The ledger's copy (what is stored, and what a merged delta grows) is what is published.
    this.inOrder(durable, { sessionId, seq: event.seq, runId, chunk: event.chunk });
  }

  /** A chunk the ledger already committed synchronously (a run's start): published in its turn. */
  stored(event: StoredChunk): void {
    // A user's turn is stored (run start): the turns before it have ended, so they are folded
    // and stored for the next open, in steps, while the model prepares its first token.
    if (event.chunk.type === 'user-message') void this.ledger.folds.catchUp(event.sessionId, event.seq);
    this.inOrder(Promise.resolve(), { sessionId: event.sessionId, seq: event.seq, runId: event.runId, chunk: event.chunk });
  }

  /**
   * Waits until every chunk appended so far is committed and published. A run ends only
   * after this, so its result never resolves before its last chunk is durable and seen.
   * Throws if one of the run's chunks could not be stored.
   */
  async settle(runId: string): Promise<void> {
    try {
      this.ledger.events.flush();
    } catch {
      // reported to the waiters of that batch, hence to storeFailures below
    }
    await this.published;
    const failure = this.storeFailures.get(runId);
    if (failure !== undefined) {
      this.storeFailures.delete(runId);
      throw failure instanceof Error ? failure : new Error(String(failure));
    }
  }

  /** Resolves once everything handed over so far is published (or known to have failed). */
  drained(): Promise<void> {
    return this.published;
  }

  /** Commits what is queued now and waits for its publication (shutdown). */
  async flush(): Promise<void> {
    this.ledger.events.flush();
    await this.published;
  }

  /** Forgets a run's store failure (the run ended another way, or was released). */
  forget(runId: string): void {
    this.storeFailures.delete(runId);
  }

  private inOrder(durable: Promise<void>, event: SessionStreamEvent): void {
    // Chunks of the same group-commit batch share its promise: one link of the chain per
    // batch, not per chunk. A batch stops taking chunks once it is committed (the ledger
    // opens a new one), so every chunk is published exactly once.
    if (this.pendingBatch?.durable === durable) {
      this.pendingBatch.events.push(event);
      return;
    }
    const batch = { durable, events: [event] };
    this.pendingBatch = batch;
    const before = this.published;
    this.published = durable.then(
      () =>
        before.then(() => {
          if (this.pendingBatch === batch) this.pendingBatch = null;
          for (const e of batch.events) {
            try {
              this.publish(e);
            } catch {
              // a subscriber's failure is not the run's
            }
          }
        }),
      (error: unknown) => {
        if (this.pendingBatch === batch) this.pendingBatch = null;
        // Not durable, so never published; each run fails with the error when it ends.
        for (const e of batch.events) if (e.runId && !this.storeFailures.has(e.runId)) this.storeFailures.set(e.runId, error);
        return before;
      },
    );
  }
}
