/**
 * Rows already durable in the audit journal, committed to SQLite off the main thread: the
 * audit rows of a cell's read-only host calls, and a notebook cell's record, evidence and
 * pre-run review (`Ledger.journaled`).
 *
 * Such a call (or cell) is answered once its records are in the audit journal
 * (auditJournal.ts); its rows then only have to reach SQLite before anyone reads them.
 * Committing them on the main thread (a group commit every `commitMs`) cost a cell's burst
 * of calls about a tenth of the main thread's time: the inserts, their indexes and
 * foreign-key checks. Here one worker thread (entry.ts) with a connection of its own
 * commits them instead, in batches; the main thread only hands over the journal lines it
 * already wrote.
 *
 * Reads see every record taken so far: `sync()` (the `beforeRead` of the repositories of
 * those rows: actions, user cells, evidence, safety checks) hands over what waits and
 * blocks until the writer has committed it, then takes its reply at once
 * (`receiveMessageOnPort`). Inside a main-thread transaction it does not wait (the writer
 * may be waiting for that transaction's lock): the records are applied on the main
 * connection, inside that transaction, and stay with the writer too (a record applied twice
 * is applied once, journalApply.ts), so a rollback loses nothing.
 *
 * Before a batch is handed over, the main thread commits its own queue (events.flush): a
 * record's run, session and kernel generation are then committed rows the writer can see.
 *
 * If the thread cannot start, dies, or does not answer a read within SYNC_WAIT_MS, every
 * record it holds is committed on the main thread instead (idempotently) and later calls
 * take the main thread's path; a batch it could not write because the ledger stayed locked
 * goes the same way. A record whose rows cannot be written (its run is unknown) is rejected,
 * as the main thread's write would be.
 */
import { MessageChannel, receiveMessageOnPort, Worker, type MessagePort } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import { threadSource, type ThreadSource } from '../../shared/threadSource';
import type { JournalRecord } from '../auditJournal';
import type { FromWriter, ToWriter, WriterData } from './protocol';

/** How long a read waits for the writer before the main thread takes its records over. */
const SYNC_WAIT_MS = 10_000;
/** How long the ledger's close waits for the writer's connection to close. */
const CLOSE_WAIT_MS = 10_000;

export interface AuditWriterOptions {
  file: string;
  sqlite: Database.Options;
  /** How long the first waiting record waits for company before its batch is handed over. */
  commitMs: number;
  /** Commits the main thread's queue (before a batch is handed over). */
  commitMain: () => void;
  /** Whether the main connection is inside a transaction now. */
  inTransaction: () => boolean;
  /** Applies a record on the main connection now (idempotent; throws if its rows cannot be written). */
  applyHere: (record: JournalRecord) => void;
  /** Commits a record on the main thread with its next group commit (the writer is not there). */
  commitLater: (record: JournalRecord) => Promise<void>;
  /** Where the thread's code comes from (tests name a missing one to see the fallback). */
  source?: () => ThreadSource | null;
}

interface Entry {
  text: string;
  /** The records of `text`, one per line, in order. */
  records: JournalRecord[];
  resolve: () => void;
  reject: (error: unknown) => void;
}

function writerSource(): ThreadSource | null {
  return threadSource(typeof __dirname === 'string' ? __dirname : null, 'ledgerWriter.js', 'entry.ts');
}

export class AuditWriter {
  /** Why records are committed on the main thread, once the writer has failed or could not start. */
  failure: string | null = null;
  /** Records the writer thread has committed (tests, diagnostics and the host-call bench). */
  committedRecords = 0;
  private worker: Worker | null = null;
  private replies: MessagePort | null = null;
  private ready = false;
  private closed = false;
  private waiting: Entry[] = [];
  private readonly inFlight = new Map<number, Entry[]>();
  private batches = 0;
  private timer: NodeJS.Timeout | null = null;
  /** Shared with the thread (protocol.ts `WriterData.state`). */
  private readonly state = new Int32Array(new SharedArrayBuffer(8));
  private readonly starting: ((serving: boolean) => void)[] = [];

  constructor(private readonly options: AuditWriterOptions) {}

  /**
   * Takes records already in the journal (`text`: their journal lines, one append); resolves
   * once their rows are committed, rejects if they cannot be written. Null while the thread
   * is not serving (starting, failed, closed): the caller commits on the main thread.
   */
  submit(text: string, records: JournalRecord[]): Promise<void> | null {
    if (!this.ready) {
      this.start();
      return null;
    }
    return new Promise<void>((resolve, reject) => {
      this.waiting.push({ text, records, resolve, reject });
      this.timer ??= setTimeout(() => this.handOver(), this.options.commitMs);
    });
  }

  /** Starts the thread if it is not running; resolves once it serves (true) or cannot (false). */
  serving(): Promise<boolean> {
    if (this.ready) return Promise.resolve(true);
    this.start();
    const worker = this.worker;
    if (!worker) return Promise.resolve(false);
    worker.ref(); // someone waits for it: the process stays up until it answers
    return new Promise((resolve) => this.starting.push(resolve));
  }

  /** Records handed over or waiting, not yet committed (diagnostics and the lifecycle test). */
  get pending(): number {
    let n = this.waiting.length;
    for (const entries of this.inFlight.values()) n += entries.length;
    return n;
  }

  /** Blocks until every record taken so far is committed (see the file's comment). */
  sync(): void {
    if (!this.waiting.length && !this.inFlight.size) return;
    if (this.options.inTransaction()) {
      for (const e of this.entries()) {
        for (const record of e.records) {
          try {
            this.options.applyHere(record);
          } catch {
            // its rows cannot be written: the writer rejects it, as it would have anyway
          }
        }
      }
      return;
    }
    this.handOver();
    const last = this.batches;
    const deadline = Date.now() + SYNC_WAIT_MS;
    while (this.inFlight.size && this.replies) {
      this.takeReplies();
      if (!this.inFlight.size) return;
      const seen = Atomics.load(this.state, 0);
      const left = deadline - Date.now();
      if (left <= 0) {
        this.fail(`the audit writer thread did not answer within ${SYNC_WAIT_MS / 1000} s`);
        return;
      }
      if (seen < last) Atomics.wait(this.state, 0, seen, left);
    }
  }

  /**
   * Commits everything taken (the writer's or, failing it, the main thread's queue, which
   * the ledger's close commits next) and closes the writer's connection before the ledger
   * closes its own: the last connection to close copies the WAL back and removes it.
   */
  close(): void {
    if (this.closed) return;
    try {
      this.sync();
    } finally {
      this.closed = true;
      const worker = this.detach();
      if (worker) {
        worker.postMessage({ type: 'close' } satisfies ToWriter);
        try {
          Atomics.wait(this.state, 1, 0, CLOSE_WAIT_MS);
        } catch {
          // a thread that may not block: the connection closes on its own
        }
        worker.unref();
      }
      // Taken but not committed (the writer failed or timed out): the main thread's queue.
      this.toMainThread(this.entries());
    }
  }

  private *entries(): Iterable<Entry> {
    yield* this.waiting;
    for (const entries of this.inFlight.values()) yield* entries;
  }

  private start(): void {
    if (this.worker || this.failure || this.closed) return;
    const source = (this.options.source ?? writerSource)();
    if (!source) {
      this.failure = 'the audit writer entry (ledgerWriter.js) is not beside the app bundle';
      return;
    }
    const channel = new MessageChannel();
    const data: WriterData = { file: this.options.file, sqlite: this.options.sqlite, state: this.state, replies: channel.port2 };
    let worker: Worker;
    try {
      worker = new Worker(source.file, { eval: source.eval, workerData: data, transferList: [channel.port2], stdout: false, stderr: false });
    } catch (error) {
      this.failure = `the audit writer thread did not start (${error instanceof Error ? error.message : String(error)})`;
      return;
    }
    worker.unref();
    this.worker = worker;
    this.replies = channel.port1;
    channel.port1.on('message', (message: FromWriter) => this.onReply(message));
    channel.port1.unref();
    worker.on('error', (error) => this.fail(`the audit writer thread failed (${error.message})`));
    worker.on('exit', (code) => this.fail(`the audit writer thread exited (code ${code})`));
  }

  /** Hands the waiting records to the writer as one batch, after the main thread's own queue is committed. */
  private handOver(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    if (!this.waiting.length) return;
    // First, while the records still wait (a read the commit makes still finds them).
    if (this.worker) this.options.commitMain();
    const entries = this.waiting;
    this.waiting = [];
    if (!this.worker) {
      this.toMainThread(entries);
      return;
    }
    const batch = ++this.batches;
    this.inFlight.set(batch, entries);
    this.worker.postMessage({ type: 'batch', batch, entries: entries.map((e) => e.text) } satisfies ToWriter);
  }

  private takeReplies(): void {
    const port = this.replies;
    if (!port) return;
    for (let m = receiveMessageOnPort(port); m; m = receiveMessageOnPort(port)) this.onReply(m.message as FromWriter);
  }

  private onReply(message: FromWriter): void {
    if (message.type === 'ready') {
      this.ready = !this.closed && !this.failure;
      this.worker?.unref();
      for (const resolve of this.starting.splice(0)) resolve(this.ready);
      return;
    }
    const entries = this.inFlight.get(message.batch);
    if (!entries) return;
    this.inFlight.delete(message.batch);
    if (message.busy !== null) {
      this.toMainThread(entries);
      return;
    }
    const failed = new Map(message.failed);
    this.committedRecords += entries.length - failed.size;
    entries.forEach((e, i) => {
      const why = failed.get(i);
      if (why === undefined) e.resolve();
      else e.reject(new Error(why));
    });
  }

  /** The thread is gone or stuck: what it held is committed on the main thread, and so is every later record. */
  private fail(reason: string): void {
    if (this.failure) return;
    this.failure = reason;
    void this.detach()?.terminate();
    const held = [...this.entries()];
    this.waiting = [];
    this.inFlight.clear();
    this.toMainThread(held);
  }

  /** Stops serving: no more records are taken, the thread's events are no longer heard; returns the thread, if it ran. */
  private detach(): Worker | null {
    this.ready = false;
    for (const resolve of this.starting.splice(0)) resolve(false);
    const worker = this.worker;
    this.worker = null;
    worker?.removeAllListeners();
    worker?.on('error', () => {}); // it is leaving; nothing waits for its answer
    this.replies?.close();
    this.replies = null;
    return worker;
  }

  private toMainThread(entries: Iterable<Entry>): void {
    for (const e of entries) Promise.all(e.records.map((r) => this.options.commitLater(r))).then(() => e.resolve(), e.reject);
    this.waiting = [];
    this.inFlight.clear();
  }
}
