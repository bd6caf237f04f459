/**
 * OpenAI-family token counts from a worker thread. Loading gpt-tokenizer's tables on the
 * main thread (Electron's main process) blocked its event loop for 140-330 ms at the first
 * run after every start on the bench VM, and that run's first request waited for it. Here
 * the thread loads them; `count` stays synchronous for the context budget's arithmetic: it
 * posts the text and waits on shared memory for the answer (`Atomics.wait`, which Node
 * allows on its main thread), some tens of microseconds. Callers remember counts
 * (tokens.ts), so a turn asks the thread only for texts it has not seen.
 */
import { Worker } from 'node:worker_threads';
import { threadSource, type ThreadSource } from '../../shared/threadSource';
import type { BpeEncoding, BpeThreadData, FromBpeThread, ToBpeThread } from './protocol';

/** How long one count waits for the thread before the caller counts the text another way. */
const COUNT_WAIT_MS = 5_000;

export interface ThreadCounter {
  /** The text's tokens, or null when the thread did not answer (it failed or stopped). */
  count(text: string): number | null;
  close(): Promise<void>;
}

function counterSource(): ThreadSource | null {
  return threadSource(typeof __dirname === 'string' ? __dirname : null, 'bpeCounter.js', 'entry.ts');
}

/**
 * Starts a thread that counts with `encoding`; resolves once its tables are loaded, or with
 * null if it cannot start or load them (the caller then counts on the main thread).
 */
export function startBpeThread(encoding: BpeEncoding, source: () => ThreadSource | null = counterSource): Promise<ThreadCounter | null> {
  const from = source();
  if (!from) return Promise.resolve(null);
  const state = new Int32Array(new SharedArrayBuffer(8));
  const data: BpeThreadData = { encoding, state };
  let worker: Worker;
  try {
    worker = new Worker(from.file, { eval: from.eval, workerData: data, stdout: false, stderr: false });
  } catch {
    return Promise.resolve(null);
  }
  let seq = 0;
  let alive = true;
  const stop = () => {
    alive = false;
    worker.removeAllListeners();
    worker.on('error', () => {});
    return worker.terminate().then(() => undefined);
  };
  const counter: ThreadCounter = {
    count(text) {
      if (!alive) return null;
      const n = ++seq;
      worker.postMessage({ type: 'count', seq: n, text } satisfies ToBpeThread);
      const deadline = Date.now() + COUNT_WAIT_MS;
      for (let seen = Atomics.load(state, 0); seen !== n; seen = Atomics.load(state, 0)) {
        const left = deadline - Date.now();
        if (left <= 0 || !alive) {
          void stop();
          return null;
        }
        Atomics.wait(state, 0, seen, left);
      }
      const tokens = Atomics.load(state, 1);
      return tokens >= 0 ? tokens : null;
    },
    close: stop,
  };
  return new Promise((resolve) => {
    worker.once('message', (message: FromBpeThread) => {
      if (message.type === 'ready') {
        worker.unref();
        resolve(counter);
      } else {
        void stop();
        resolve(null);
      }
    });
    worker.on('error', () => {
      alive = false;
      resolve(null);
    });
    worker.on('exit', () => {
      alive = false;
      resolve(null);
    });
  });
}
