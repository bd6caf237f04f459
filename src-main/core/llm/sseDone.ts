/**
 * Ends a provider's event stream at `data: [DONE]`. The OpenAI-compatible parser of the
 * AI SDK skips the `[DONE]` event and goes on parsing, so a proxy or a hostile server
 * could append text or tool calls after the end marker and have them taken as the
 * model's. Wrapping the fetch given to the provider makes the body end right after the
 * marker line and closes the connection; nothing after it is ever parsed.
 */
import type { FetchFunction } from './types';

const DONE_LINE = /^data: ?\[DONE\]\s*$/;
/** One complete line and its terminator (SSE allows CRLF, LF or CR). */
const LINE = /[^\r\n]*(?:\r\n|\r|\n)/y;

/** A byte transform that passes the stream through unchanged up to the `[DONE]` line, then ends it. */
export function doneTerminator(): TransformStream<Uint8Array, Uint8Array> {
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  // The current incomplete line: held until its terminator arrives (the parser needs whole lines anyway).
  let pending = '';
  return new TransformStream({
    transform(chunk, controller) {
      const text = pending + decoder.decode(chunk, { stream: true });
      let out = '';
      let at = 0;
      LINE.lastIndex = 0;
      for (let m = LINE.exec(text); m; m = LINE.exec(text)) {
        at = LINE.lastIndex;
        out += m[0];
        if (DONE_LINE.test(m[0].replace(/[\r\n]+$/, ''))) {
          // Finish the event with a blank line, then end: the rest is never parsed.
          controller.enqueue(encoder.encode(`${out}\n`));
          pending = '';
          controller.terminate();
          return;
        }
      }
      pending = text.slice(at);
      if (out) controller.enqueue(encoder.encode(out));
    },
    flush(controller) {
      const rest = pending + decoder.decode();
      if (rest) controller.enqueue(encoder.encode(rest));
    },
  });
}

/** A fetch whose event-stream response bodies end at `data: [DONE]`. */
export function fetchEndingAtDone(fetchImpl: FetchFunction): FetchFunction {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || !/event-stream/i.test(type)) return response;
    return new Response(response.body.pipeThrough(doneTerminator()), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
