import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type Database from 'better-sqlite3';
import type { Db } from './database';

/**
 * Copies the ledger's WAL back into the database file (a checkpoint) on a thread of its
 * own. SQLite does it by default inside the commit that takes the WAL past 1,000 pages:
 * on the thread that commits, which is Electron's main process, in the middle of a
 * streaming run or a burst of cells, and with the two fsyncs `synchronous=NORMAL` makes
 * there (the WAL, then the database file). Measured on the bench VM: 5-16 ms each, every
 * ~80 cells or 2-3 times per 50,000 streamed chunks; on a slow disk an fsync alone can
 * take longer. Here the main connection's automatic checkpoint is off, the WAL's size is
 * looked at every `checkIntervalMs`, and past the same 1,000 pages a PASSIVE checkpoint
 * runs on a worker thread with its own connection (it never blocks a writer; SQLite
 * restarts the WAL on a later commit once it has been copied). The durability contract is
 * unchanged (README.md): a power cut may lose what was committed since the last
 * checkpoint's fsync, about one checkpoint's worth, as before.
 *
 * If the worker cannot start or fails, the main connection's automatic checkpoint is
 * turned back on: the WAL never grows without bound.
 */
export interface CheckpointerOptions {
  /** How often the WAL's size is looked at. */
  checkIntervalMs?: number;
  /** Checkpoint once the WAL holds this many pages (SQLite's default automatic threshold). */
  walPages?: number;
  /** better-sqlite3's options (the Electron build names its own addon). */
  sqlite?: Database.Options;
  /** The module the worker loads (tests name a missing one to see the fallback). */
  driver?: string;
}

const AUTO_CHECKPOINT_PAGES = 1000;
/** The WAL's own header, and each frame's header before its page (sqlite.org/fileformat2.html#walformat). */
const WAL_HEADER = 32;
const FRAME_HEADER = 24;

// Plain CommonJS run by the worker (eval: no file to ship beside the bundle). It only
// checkpoints, never writes a row, and holds its connection only while it checkpoints, so
// when the ledger closes, the main connection is the last one: SQLite then copies the
// rest of the WAL and removes it, as it did before.
// `state` is shared with the main thread: [0] is 1 from the moment a checkpoint is asked
// for until the worker's connection is closed again, [1] is 1 once the ledger closes (a
// checkpoint asked for before then is skipped, not started).
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const state = workerData.state;
parentPort.on('message', (message) => {
  if (message === 'close') return parentPort.close();
  let row = null;
  try {
    if (Atomics.load(state, 1) === 0) {
      const db = new Database(workerData.file, { ...workerData.sqlite, fileMustExist: true });
      try {
        [row] = db.pragma('wal_checkpoint(PASSIVE)');
      } finally {
        db.close();
      }
    }
  } finally {
    Atomics.store(state, 0, 0);
    Atomics.notify(state, 0);
  }
  parentPort.postMessage(row);
});
`;

/** How long the ledger's close waits for a checkpoint in progress on the worker. */
const CLOSE_WAIT_MS = 10_000;

export class Checkpointer {
  /** Checkpoints the worker has completed (for tests and diagnostics). */
  completed = 0;
  /** Why the worker is not used, once it has failed (automatic checkpoints are back on). */
  failure: string | null = null;
  private worker: Worker | null = null;
  private busy = false;
  private closed = false;
  private readonly timer: NodeJS.Timeout;
  private readonly walFile: string;
  private readonly thresholdBytes: number;
  /** Shared with the worker (see WORKER): a checkpoint asked for or running; the ledger closing. */
  private readonly state = new Int32Array(new SharedArrayBuffer(8));

  constructor(
    private readonly db: Db,
    private readonly options: CheckpointerOptions = {},
  ) {
    this.walFile = `${db.name}-wal`;
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    this.thresholdBytes = WAL_HEADER + (options.walPages ?? AUTO_CHECKPOINT_PAGES) * (pageSize + FRAME_HEADER);
    db.pragma('wal_autocheckpoint = 0');
    this.timer = setInterval(() => this.check(), options.checkIntervalMs ?? 200);
    this.timer.unref();
  }

  /**
   * Stops checking and lets the worker go; the connection's close does the last checkpoint.
   * A checkpoint the worker is running is waited for (milliseconds; it holds a connection
   * of its own): otherwise the worker's connection would close after the ledger's, and
   * SQLite would copy and remove the WAL after the caller believes the ledger closed (a
   * folder removed just after the close then met files still being written).
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    clearInterval(this.timer);
    Atomics.store(this.state, 1, 1);
    const worker = this.worker;
    this.worker = null;
    if (!worker) return;
    try {
      if (Atomics.load(this.state, 0) === 1) Atomics.wait(this.state, 0, 1, CLOSE_WAIT_MS);
    } catch {
      // A thread that may not block (a browser-like context): the app's close awaited
      // `settled()` first; a bare close lets the worker's connection close on its own.
    }
    worker.removeAllListeners();
    worker.on('error', () => {}); // it is leaving; nothing is waiting for its answer
    worker.postMessage('close');
    worker.unref();
  }

  /** Resolves once no checkpoint is running on the worker (the app awaits it before closing the ledger, without blocking). */
  async settled(): Promise<void> {
    if (Atomics.load(this.state, 0) !== 1) return;
    // Node 16+ and Electron have Atomics.waitAsync; the ES2023 lib this builds against does not name it.
    const waitAsync = (Atomics as unknown as { waitAsync?: (a: Int32Array, i: number, v: number, ms: number) => { async: boolean; value: unknown } }).waitAsync;
    if (!waitAsync) return;
    const waiting = waitAsync(this.state, 0, 1, CLOSE_WAIT_MS);
    if (waiting.async) await waiting.value;
  }

  private check(): void {
    if (this.busy || this.closed || this.failure) return;
    fs.stat(this.walFile, (error, stat) => {
      // No WAL file (nothing written since the last restart of it): nothing to copy.
      if (error || stat.size < this.thresholdBytes || this.busy || this.closed || this.failure) return;
      this.busy = true;
      const worker = this.ensureWorker();
      Atomics.store(this.state, 0, 1);
      worker.postMessage('checkpoint');
    });
  }

  private ensureWorker(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(WORKER, {
      eval: true,
      workerData: { file: this.db.name, driver: this.options.driver ?? resolveDriver(), sqlite: this.options.sqlite ?? {}, state: this.state },
    });
    worker.unref();
    worker.on('message', () => {
      this.completed += 1;
      this.busy = false;
    });
    worker.on('error', (error) => this.fail(error.message));
    worker.on('exit', (code) => this.fail(`the checkpoint worker exited (code ${code})`));
    this.worker = worker;
    return worker;
  }

  /** The worker is gone: SQLite's automatic checkpoint on the main connection takes over again. */
  private fail(reason: string): void {
    if (this.closed || this.failure) return;
    this.failure = reason;
    this.worker = null;
    this.busy = false;
    Atomics.store(this.state, 0, 0); // a dead worker holds no connection: nothing to wait for
    try {
      this.db.pragma(`wal_autocheckpoint = ${this.options.walPages ?? AUTO_CHECKPOINT_PAGES}`);
    } catch {
      // the connection was closed meanwhile: nothing left to checkpoint from here
    }
  }
}

/** better-sqlite3's entry as an absolute path: the worker's own `require` resolves from the cwd, not from here. */
function resolveDriver(): string {
  const anchor = typeof __filename === 'string' ? __filename : path.join(process.cwd(), 'package.json');
  return createRequire(anchor).resolve('better-sqlite3');
}
