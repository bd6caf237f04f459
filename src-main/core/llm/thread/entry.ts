/**
 * The model thread: provider requests, their HTTP bodies, SSE and JSON parsing and part
 * normalization run here, off the main thread (which in the app is Electron's main
 * process: every IPC reply and window event waits behind it). See modelThread.ts.
 */
import { parentPort } from 'node:worker_threads';
import { findProvider } from '../../config/providerCatalog';
import { registerSecrets } from '../../security/secrets';
import { errorMessage } from '../../shared/errorMessage';
import { currentThreadId, setThreadNice } from '../../shared/threadPriority';
import { streamFromProvider } from '../providerStream';
import type { Part } from '../types';
import { createWire } from '../wires';
import { MAX_BATCHES_IN_FLIGHT, MAX_BATCH_PARTS, type FromThread, type StreamJob, type ToThread } from './protocol';

interface Running {
  controller: AbortController;
  closed: boolean;
  /** Batches sent and not yet taken by the main thread. */
  inFlight: number;
  /** Parts made and not sent yet. */
  batch: Part[];
  flushQueued: boolean;
  wake: (() => void) | null;
}

const port = parentPort;
if (!port) throw new Error('the model thread runs only as a worker thread');
const post = (message: FromThread) => port.postMessage(message);
const running = new Map<number, Running>();

function wakeUp(r: Running): void {
  const wake = r.wake;
  r.wake = null;
  wake?.();
}

/** Sends the parts made so far, unless the main thread already holds its share of batches. */
function flush(id: number, r: Running): void {
  r.flushQueued = false;
  if (r.batch.length === 0 || r.closed || r.inFlight >= MAX_BATCHES_IN_FLIGHT) return;
  post({ type: 'parts', id, parts: r.batch });
  r.batch = [];
  r.inFlight++;
}

async function run(id: number, job: StreamJob, request: Extract<ToThread, { type: 'stream' }>['request']): Promise<void> {
  const r: Running = { controller: new AbortController(), closed: false, inFlight: 0, batch: [], flushQueued: false, wake: null };
  running.set(id, r);
  try {
    const spec = findProvider(job.providerId);
    if (!spec) throw new Error(`unknown provider "${job.providerId}"`);
    if (job.apiKey) registerSecrets([job.apiKey]);
    const wire = createWire({ providerId: job.providerId, wire: job.wire, baseUrl: job.baseUrl, apiKey: job.apiKey });
    const target = { spec, baseUrl: job.baseUrl, apiKey: job.apiKey, model: job.model };
    const parts = streamFromProvider(wire, target, { ...request, signal: r.controller.signal }, job.policy, Math.random, job.timeouts);
    for await (const part of parts) {
      if (r.closed) break;
      r.batch.push(part);
      // Parts made in one turn (one read of the body) cross together.
      if (r.batch.length >= MAX_BATCH_PARTS) flush(id, r);
      else if (!r.flushQueued) {
        r.flushQueued = true;
        setImmediate(() => flush(id, r));
      }
      // The main thread is behind: stop reading the provider until it takes a batch.
      while ((r.inFlight >= MAX_BATCHES_IN_FLIGHT || r.batch.length >= MAX_BATCH_PARTS) && !r.closed) await new Promise<void>((resolve) => (r.wake = resolve));
    }
    await sendRest(id, r);
    if (!r.closed) post({ type: 'end', id });
  } catch (error) {
    await sendRest(id, r);
    if (!r.closed) post({ type: 'fail', id, message: errorMessage(error) });
  } finally {
    running.delete(id);
  }
}

/** Every part made is sent (as the main thread takes batches), then the end. */
async function sendRest(id: number, r: Running): Promise<void> {
  for (;;) {
    flush(id, r);
    if (r.batch.length === 0 || r.closed) break;
    await new Promise<void>((resolve) => (r.wake = resolve));
  }
}

port.on('message', (message: ToThread) => {
  if (message.type === 'stream') {
    void run(message.id, message.job, message.request);
    return;
  }
  const r = running.get(message.id);
  if (!r) return;
  if (message.type === 'taken') {
    r.inFlight = Math.max(0, r.inFlight - 1);
    // Parts held back for want of room go now, even if the provider sends nothing more for a while.
    flush(message.id, r);
    wakeUp(r);
  } else if (message.type === 'abort') {
    r.controller.abort();
  } else {
    r.closed = true;
    r.controller.abort();
    wakeUp(r);
  }
});

/**
 * Under contention the main thread goes first: on Linux a thread is a task of its own, and a
 * lower priority for this one (its id from /proc/thread-self) leaves the process's other
 * threads alone. Elsewhere this is not possible per thread and is skipped. The lowest
 * priority (19): the stream waits in the socket and the batches, the window does not. In
 * the streaming bench the main thread's event-loop lag p99 was lower than at nice 10 in 8 of
 * 11 interleaved pairs (4 of them after a longer warm-up), medians 5.0 and 5.7 ms, at the
 * same chunk rate.
 */
const MODEL_THREAD_NICE = 19;

function yieldToMainThread(): void {
  const tid = currentThreadId();
  // No /proc, or not allowed: the thread keeps the process's priority.
  if (tid !== null && tid !== process.pid) setThreadNice(tid, MODEL_THREAD_NICE);
}

yieldToMainThread();
post({ type: 'ready' });
