import { renderReply, type ReplyStep } from '../../src-main/core/llm/scripted/script';

/** What a network read hands the parser at most (a TLS record); the bytes arrive in pieces this big. */
export const NETWORK_READ_BYTES = 16 * 1024;

const ORIGIN = 'http://in-memory-model.invalid';

/**
 * A recorded OpenAI Chat Completions SSE body per request, served to the app's own
 * provider stack without a socket: the app's `globalThis.fetch` answers requests to this
 * origin with a Response whose body is the recorded bytes in NETWORK_READ_BYTES pieces,
 * pulled on demand (backpressure as a network body has). Everything above fetch is the
 * production path: the `[DONE]` guard, the AI SDK's SSE and JSON parsing, normalisation,
 * the engine, the session runner, the ledger and publication. Only the socket and the
 * HTTP parser (undici's llhttp) are left out; other origins go to the real fetch.
 */
export function installInMemoryModel(steps: ReplyStep[]): { env: Record<string, string>; requests(): number; uninstall(): void } {
  // Rendered up front, so a measurement holds only the app's work (the usage chunk counts no prompt).
  const script = steps.map((step) => Buffer.from(renderReply(step, 0).filter((f): f is string => typeof f === 'string').join(''), 'utf8'));
  let served = 0;
  const realFetch = globalThis.fetch;
  const fake: typeof fetch = async (input, init) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    if (!url.startsWith(ORIGIN)) return realFetch(input, init);
    const bytes = script.shift();
    if (!bytes) return new Response(JSON.stringify({ error: { message: 'in-memory model: no step left', type: 'server_error' } }), { status: 500, headers: { 'content-type': 'application/json' } });
    served++;
    let at = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (init?.signal?.aborted) return controller.error(init.signal.reason);
        if (at >= bytes.length) return controller.close();
        controller.enqueue(new Uint8Array(bytes.subarray(at, Math.min(at + NETWORK_READ_BYTES, bytes.length))));
        at += NETWORK_READ_BYTES;
      },
    });
    return new Response(body, { status: 200, headers: { 'content-type': 'text/event-stream' } });
  };
  globalThis.fetch = fake;
  return {
    env: { OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_BASE_URL: `${ORIGIN}/v1`, OPENAI4S_OPENAI_API_KEY: 'bench' },
    requests: () => served,
    uninstall() {
      if (globalThis.fetch === fake) globalThis.fetch = realFetch;
    },
  };
}
