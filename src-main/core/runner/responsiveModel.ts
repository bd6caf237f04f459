import type { LanguageModelPort, LlmRequest, Part } from '../llm/types';

/**
 * How long a run's stream may hold the event loop before it lets timers, I/O and IPC in.
 * Measured on the streaming bench (50k deltas from a local flood model): 2 ms cost ~40% more
 * CPU per chunk, because every yield lets the socket fill and undici then copies its buffer
 * on each resume; 4 ms costs ~0-15% and halves the lag's p90 (13 -> 7 ms) against no slices.
 */
export const STREAM_SLICE_MS = 4;

/**
 * The model's stream, handing the event loop back every `sliceMs` of work. A provider's
 * response arrives in network reads of hundreds of events, and parsing them, running the
 * engine on each and queueing the chunks is a chain of microtasks that never yields: one
 * read held the main process (Electron's UI thread) for tens of milliseconds, and the
 * group commit's timer could not run, so batches grew with it. Here the time is measured
 * across pulling a part and the consumer handling it; once a slice is used up, the next
 * part is pulled after a `setImmediate`, so the ledger's commit, IPC and input run between
 * slices. The parts, their order and the end of the stream are unchanged.
 */
export async function* inSlices<T>(parts: AsyncIterable<T>, sliceMs = STREAM_SLICE_MS): AsyncGenerator<T> {
  let sliceStart = performance.now();
  for await (const part of parts) {
    yield part;
    if (performance.now() - sliceStart >= sliceMs) {
      await new Promise<void>((resolve) => setImmediate(resolve));
      sliceStart = performance.now();
    }
  }
}

/** The same model, its streams consumed in slices (see `inSlices`). */
export function responsiveModel(model: LanguageModelPort, sliceMs = STREAM_SLICE_MS): LanguageModelPort {
  return {
    providerId: model.providerId,
    model: model.model,
    baseUrl: model.baseUrl,
    stream: (request: LlmRequest): AsyncIterable<Part> => inSlices(model.stream(request), sliceMs),
  };
}
