/**
 * The messages between the main thread and the BPE counting thread (entry.ts). A count is
 * answered through shared memory, so the main thread can wait for it synchronously
 * (`Atomics.wait`): the context budget's arithmetic stays synchronous.
 */
export type BpeEncoding = 'o200k_base' | 'cl100k_base';

export interface BpeThreadData {
  encoding: BpeEncoding;
  /** [0]: the number of the last count answered; [1]: its token count (-1: the count failed). */
  state: Int32Array;
}

export type ToBpeThread = { type: 'count'; seq: number; text: string };

export type FromBpeThread = { type: 'ready' } | { type: 'failed'; message: string };
