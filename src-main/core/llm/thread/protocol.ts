/**
 * The messages between the main thread and the model thread (entry.ts). One thread serves
 * every stream of the process; each stream has an id. Parts cross in batches (whatever the
 * provider's last read produced) and the thread sends at most `MAX_BATCHES_IN_FLIGHT`
 * batches the main thread has not taken yet, so a slow consumer holds the provider's socket
 * back as it does in process.
 */
import type { RetryPolicy } from '../retry';
import type { ProviderTimeouts } from '../timeouts';
import type { LlmRequest, Part } from '../types';
import type { WireProtocol } from '../../config/providerCatalog';

export const MAX_BATCHES_IN_FLIGHT = 4;
/** A batch is sent at once when it holds this many parts (else at the end of the thread's turn). */
export const MAX_BATCH_PARTS = 1024;

/** Everything the thread needs to make the request: no lookups, no functions. */
export interface StreamJob {
  providerId: string;
  wire: WireProtocol;
  baseUrl: string;
  apiKey: string | null;
  model: string;
  policy: RetryPolicy;
  timeouts: ProviderTimeouts;
}

export type ToThread =
  | { type: 'stream'; id: number; job: StreamJob; request: Omit<LlmRequest, 'signal'> }
  /** The main thread took one batch: the thread may send another. */
  | { type: 'taken'; id: number }
  /** The caller's signal aborted: the stream ends as an aborted one (its last parts still come). */
  | { type: 'abort'; id: number }
  /** The caller stopped reading: the connection closes and nothing more is sent. */
  | { type: 'close'; id: number };

export type FromThread =
  | { type: 'ready' }
  | { type: 'parts'; id: number; parts: Part[] }
  | { type: 'end'; id: number }
  /** The stream threw (a defect: provider failures arrive as `error` parts). */
  | { type: 'fail'; id: number; message: string };
