import type { LanguageModelPort, LlmRequest, Part } from '../llm/types';

/**
 * How long a run's stream may hold the event loop before it lets timers, I/O and IPC in.
 * The lag target (p99 <= 5 ms) needs every block shorter than that, a slice plus the part in
 * hand plus a young-generation GC. 4 ms was chosen when each yield cost ~40% more CPU
 * per chunk (undici copied its socket buffer on every resume); the provider's fetch no
 * longer uses undici for the stream (llm/httpFetch.ts), so a yield costs a setImmediate.
 * 2 ms left no room for the young-generation GC of a fast stream (2-4 ms on the bench VM,
 * run as a task of its own between slices); at 1 ms, paired runs of the streaming bench had
 * lag p99 6.9/6.3/5.2 ms against 11.7/9.4/8.9 (in-memory) and 10.0/10.8/10.3 against
 * 12.7/11.9/11.4 (socket), at the same chunks/s and CPU per chunk.
 */
export const STREAM_SLICE_MS = 1;

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
  // The turn's preparation (context, prompt, tools) and the request are separate slices too.
  await yieldToEventLoop();
  let sliceStart = performance.now();
  for await (const part of parts) {
    yield part;
    if (performance.now() - sliceStart >= sliceMs) {
      await yieldToEventLoop();
      sliceStart = performance.now();
    }
  }
}

/** Lets timers, I/O and IPC run before going on (a macrotask turn; a resolved promise would not). */
export function yieldToEventLoop(): Promise<void> {
  return new Promise<void>((resolve) => setImmediate(resolve));
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
