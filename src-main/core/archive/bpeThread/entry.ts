/**
 * The BPE counting thread: loads gpt-tokenizer's tables for one encoding (2.4 MB of script,
 * about 35 MB of heap, 140-330 ms of CPU on the bench VM) and counts texts for the main
 * thread, which then never runs that load itself. See bpeCounter.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { errorMessage } from '../../shared/errorMessage';
import { loadBpe } from './loadBpe';
import type { BpeThreadData, FromBpeThread, ToBpeThread } from './protocol';

const port = parentPort;
if (!port) throw new Error('the BPE counter runs only as a worker thread');
const data = workerData as BpeThreadData;
const post = (message: FromBpeThread) => port.postMessage(message);

function answer(seq: number, tokens: number): void {
  Atomics.store(data.state, 1, tokens);
  Atomics.store(data.state, 0, seq);
  Atomics.notify(data.state, 0);
}

loadBpe(data.encoding).then(
  (count) => {
    port.on('message', (message: ToBpeThread) => {
      let tokens = -1;
      try {
        tokens = count(message.text);
      } catch {
        // answered as -1: the main thread counts this text another way
      }
      answer(message.seq, tokens);
    });
    post({ type: 'ready' });
  },
  (error: unknown) => post({ type: 'failed', message: errorMessage(error) }),
);
