/**
 * Provider streams on a thread of their own. Reading a fast stream costs the main thread
 * most of its time in the HTTP body, the SDK's web streams, SSE and JSON parsing and the
 * normalizer, and most of its garbage: on Electron's main process every IPC reply and
 * window event waits behind that work and its young-generation collections (the streaming
 * bench's event-loop lag). Here one worker thread (entry.ts) runs `streamFromProvider` for
 * every stream of the process and sends the parts over in batches; the main thread only
 * takes them. The port and its parts are the same as in process: retries, timeouts,
 * abort (the signal, or leaving the loop early) and the terminal part behave alike.
 *
 * The thread starts with the first stream and is unreferenced while no stream is open. If
 * it cannot start, streams run in process (said once on stderr). If it dies, the streams
 * it was serving end with an `internal` error part and the next stream starts a new one;
 * after three deaths in a process streams run in process.
 */
import { Worker } from 'node:worker_threads';
import { scrubSecrets } from '../../security/secrets';
import { threadSource, type ThreadSource } from '../../shared/threadSource';
import type { LlmErrorInfo, LlmRequest, Part } from '../types';
import type { FromThread, StreamJob, ToThread } from './protocol';

const MAX_DEATHS = 3;

interface Open {
  batches: Part[][];
  ended: boolean;
  wake: (() => void) | null;
  /** Set when the thread died or failed the stream: the error part to end with. */
  failure: LlmErrorInfo | null;
  /** The stream's terminal part (finish or error) has arrived: a death after it adds nothing. */
  terminal: boolean;
  providerId: string;
}

/** How to start the thread here: the bundled entry beside the app's bundle, or the source under tsx. */
function modelThreadSource(): ThreadSource | null {
  return threadSource(typeof __dirname === 'string' ? __dirname : null, 'llmThread.js', 'entry.ts');
}

/**
 * An error or retry part scrubbed again with this thread's secrets: the model thread knows
 * only its stream's key, the main thread every secret the app registered (other providers'
 * keys, tokens), as an error scrubbed in process would have been.
 */
function scrubbedHere(part: Part): Part {
  if (part.type !== 'error' && part.type !== 'retry') return part;
  const error: LlmErrorInfo = { ...part.error, message: scrubSecrets(part.error.message), code: part.error.code && scrubSecrets(part.error.code) };
  return { ...part, error };
}

function threadError(providerId: string, message: string): LlmErrorInfo {
  return { errorType: 'internal', code: 'model_thread_failed', message, status: null, provider: providerId, retryable: false };
}

export interface ModelThreadOptions {
  /** Where the thread's code comes from (tests give a broken one to see the fallback). */
  source?: () => { file: string; eval: boolean } | null;
}

export class ModelThread {
  private worker: Worker | null = null;
  /** Streams the thread has served (tests check which path a stream took). */
  served = 0;
  private ready: Promise<boolean> | null = null;
  private readonly open = new Map<number, Open>();
  private nextId = 1;
  private deaths = 0;
  private disabled: string | null = null;

  constructor(private readonly options: ModelThreadOptions = {}) {}

  /** Why streams run in process here, or null when the thread serves them. */
  get unavailable(): string | null {
    return this.disabled;
  }

  /** Open streams (for the lifecycle tests: empty once every stream ended). */
  get openStreams(): number {
    return this.open.size;
  }

  /** Batches received and not yet taken by their streams' readers (bounded by MAX_BATCHES_IN_FLIGHT each). */
  get bufferedBatches(): number {
    let n = 0;
    for (const s of this.open.values()) n += s.batches.length;
    return n;
  }

  /** Starts the thread (once); resolves false when it cannot start here. */
  start(): Promise<boolean> {
    if (this.disabled) return Promise.resolve(false);
    if (this.ready) return this.ready;
    const source = (this.options.source ?? modelThreadSource)();
    if (!source) {
      this.disable('the model thread entry (llmThread.js) is not beside the app bundle');
      return Promise.resolve(false);
    }
    let worker: Worker;
    try {
      worker = new Worker(source.file, { eval: source.eval, stdout: false, stderr: false });
    } catch (error) {
      this.disable(`the model thread did not start (${error instanceof Error ? error.message : String(error)})`);
      return Promise.resolve(false);
    }
    this.worker = worker;
    worker.unref();
    this.ready = new Promise<boolean>((resolve) => {
      let started = false;
      worker.on('message', (message: FromThread) => {
        if (message.type === 'ready') {
          started = true;
          resolve(true);
          return;
        }
        this.onMessage(message);
      });
      const gone = (why: string) => {
        if (this.worker !== worker) return;
        this.worker = null;
        this.ready = null;
        if (!started) {
          this.disable(`the model thread did not start (${why})`);
          resolve(false);
          return;
        }
        this.deaths++;
        if (this.deaths >= MAX_DEATHS) this.disable(`the model thread stopped ${this.deaths} times (last: ${why})`);
        this.endAll(why);
      };
      worker.on('error', (error) => gone(error.message));
      worker.on('exit', (code) => gone(`exit code ${code}`));
    });
    return this.ready;
  }

  /** The thread is gone: every open stream ends, with an error part unless its terminal part already came. */
  private endAll(why: string): void {
    for (const [id, s] of this.open) {
      if (!s.terminal) s.failure ??= threadError(s.providerId, `The model connection thread stopped (${why}); nothing more of this reply will arrive. Send the message again.`);
      s.ended = true;
      this.wake(id);
    }
  }

  private disable(why: string): void {
    if (this.disabled) return;
    this.disabled = why;
    process.stderr.write(`openai4s: ${why}; provider streams run on the main thread.\n`);
  }

  private post(message: ToThread): void {
    this.worker?.postMessage(message);
  }

  private wake(id: number): void {
    const s = this.open.get(id);
    const w = s?.wake;
    if (s) s.wake = null;
    w?.();
  }

  private onMessage(message: FromThread): void {
    if (message.type === 'ready') return;
    const s = this.open.get(message.id);
    if (!s) return;
    if (message.type === 'parts') {
      s.batches.push(message.parts);
      const lastPart = message.parts[message.parts.length - 1];
      if (lastPart?.type === 'finish' || lastPart?.type === 'error') s.terminal = true;
    }
    else {
      if (message.type === 'fail' && !s.terminal) s.failure = threadError(s.providerId, `The model stream failed: ${message.message}`);
      s.ended = true;
    }
    this.wake(message.id);
  }

  /**
   * The parts of one stream, from the thread; `inProcess` when the thread is not available.
   * The caller's signal and an early exit from the loop reach the thread at once.
   */
  async *stream(job: StreamJob, request: LlmRequest, inProcess: () => AsyncIterable<Part>): AsyncGenerator<Part> {
    if (!(await this.start()) || !this.worker) {
      yield* inProcess();
      return;
    }
    const id = this.nextId++;
    const { signal, ...plain } = request;
    try {
      this.post({ type: 'stream', id, job, request: plain });
    } catch {
      // Something in the request cannot be copied to another thread (a function in a tool's
      // schema): the provider package on this thread serialises it as it always did.
      yield* inProcess();
      return;
    }
    this.served++;
    const s: Open = { batches: [], ended: false, wake: null, failure: null, terminal: false, providerId: job.providerId };
    this.open.set(id, s);
    const onAbort = () => this.post({ type: 'abort', id });
    // Referenced while a stream is open: a process whose only work is this stream stays up.
    if (this.open.size === 1) this.worker.ref();
    try {
      if (signal?.aborted) onAbort();
      else signal?.addEventListener('abort', onAbort, { once: true });
      for (;;) {
        const batch = s.batches.shift();
        if (batch) {
          this.post({ type: 'taken', id });
          for (const part of batch) yield scrubbedHere(part);
          continue;
        }
        if (s.ended) break;
        await new Promise<void>((resolve) => (s.wake = resolve));
      }
      if (s.failure) yield { type: 'error', error: s.failure };
    } finally {
      signal?.removeEventListener('abort', onAbort);
      if (!s.ended) this.post({ type: 'close', id });
      this.open.delete(id);
      if (this.open.size === 0) this.worker?.unref();
    }
  }

  /** Stops the thread (tests; the app's threads end with its process). */
  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = null;
    this.ready = null;
    this.endAll('it was stopped');
    if (worker) await worker.terminate();
  }
}

/** The process's model thread. */
export const modelThread = new ModelThread();

