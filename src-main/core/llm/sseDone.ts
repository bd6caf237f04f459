/**
 * Ends a provider's event stream at `data: [DONE]`. The OpenAI-compatible parser of the
 * AI SDK skips the `[DONE]` event and goes on parsing, so a proxy or a hostile server
 * could append text or tool calls after the end marker and have them taken as the
 * model's. Wrapping the fetch given to the provider makes the body end right after the
 * marker line and closes the connection; nothing after it is ever parsed.
 *
 * The same wrapper reads the body as fast as it arrives and hands the parser what has
 * arrived since its last read as one piece (`coalescedUntilDone`). A server sends one
 * HTTP chunk per event; read one at a time, each costs a round of web-stream promises
 * here and in the SDK's decoder, and undici pauses its parser whenever the consumer
 * falls behind, then on each resume copies everything its socket holds into one buffer
 * (Node 20: `Socket.read()` in `resume`): on a fast stream that copy was a third of the
 * main process's CPU. Drained eagerly, the parser never pauses while under `HIGH_WATER`.
 */
import type { FetchFunction } from './types';

const DONE_LINE = /^data: ?\[DONE\]\s*$/;
/** One complete line and its terminator (SSE allows CRLF, LF or CR). */
const LINE = /[^\r\n]*(?:\r\n|\r|\n)/y;
/** Characters read ahead of the consumer before the body is left to backpressure. */
const HIGH_WATER = 64 * 1024;
/**
 * At most this many characters (and whole lines) go to the parser at once: the SDK parses a
 * piece in one synchronous call, so a bigger one would hold the event loop longer.
 */
const PIECE = 4 * 1024;

/**
 * The index of the last `\n` or `\r` before `before`, or -1. A `\r` can only be the last
 * line end if it follows the last `\n`, so only that tail is searched for one: V8's
 * `lastIndexOf` walks back character by character, and searching a whole read for a `\r`
 * that an LF-only stream never sends was a few per cent of a streaming run's CPU.
 */
export function lastLineEnd(text: string, before: number): number {
  const lf = before > 0 ? text.lastIndexOf('\n', before - 1) : -1;
  let last = lf;
  for (let cr = text.indexOf('\r', lf + 1); cr >= 0 && cr < before; cr = text.indexOf('\r', cr + 1)) last = cr;
  return last;
}

/** Splits decoded text into complete lines and says where `data: [DONE]` ends the stream. */
class DoneCut {
  private pending = '';
  done = false;

  /** The complete lines of `text` (after what was held), up to and including a `[DONE]` event. */
  push(text: string): string {
    const all = this.pending + text;
    // A CR at the very end may be the first half of a CRLF: its line is not complete yet.
    const scanTo = all.endsWith('\r') ? all.length - 1 : all.length;
    const end = lastLineEnd(all, scanTo) + 1;
    const complete = all.slice(0, end);
    this.pending = all.slice(end);
    // Most reads hold no marker: pass them on without splitting into lines.
    if (!complete.includes('[DONE]')) return complete;
    let out = '';
    LINE.lastIndex = 0;
    for (let m = LINE.exec(complete); m; m = LINE.exec(complete)) {
      out += m[0];
      if (DONE_LINE.test(m[0].replace(/[\r\n]+$/, ''))) {
        // Finish the event with a blank line, then end: the rest is never parsed.
        this.done = true;
        this.pending = '';
        return `${out}\n`;
      }
    }
    return complete;
  }

  /** What is left at the end of the body (an unterminated last line). */
  rest(): string {
    const rest = this.pending;
    this.pending = '';
    return rest;
  }
}

/**
 * `body` up to the `[DONE]` line, byte for byte, read eagerly: everything that arrived
 * while the consumer was busy comes out as one chunk. Errors of the body (an abort, a
 * cut connection) reach the consumer after the text that came before them.
 */
export function coalescedUntilDone(body: ReadableStream<Uint8Array>, rewrite?: (piece: string) => string): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const encoder = new TextEncoder();
  const cut = new DoneCut();
  let ended = false;
  let failed: { error: unknown } | null = null;
  let pumping = false;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  // Complete lines read and not yet handed on, in the pieces they were read in.
  let ready: string[] = [];
  let readyChars = 0;
  const take = (text: string) => {
    if (!text) return;
    ready.push(text);
    readyChars += text.length;
  };
  /**
   * The next piece: reads joined up to PIECE characters; a longer read is cut after its last
   * line end within PIECE (each read holds whole lines), so one piece's parse stays short.
   */
  const nextPiece = (): string => {
    const first = ready[0]!;
    if (first.length > PIECE) {
      const cutAt = lastLineEnd(first, PIECE) + 1;
      // A CRLF stays together; a single line longer than PIECE goes whole.
      const end = cutAt === 0 ? first.length : first[cutAt - 1] === '\r' && first[cutAt] === '\n' ? cutAt + 1 : cutAt;
      if (end < first.length) {
        ready[0] = first.slice(end);
        readyChars -= end;
        return first.slice(0, end);
      }
    }
    let n = 0;
    let chars = 0;
    while (n < ready.length && (n === 0 || chars + ready[n]!.length <= PIECE)) chars += ready[n++]!.length;
    const piece = n === 1 ? ready[0]! : ready.slice(0, n).join('');
    ready = n === ready.length ? [] : ready.slice(n);
    readyChars -= chars;
    return piece;
  };

  async function pump(): Promise<void> {
    pumping = true;
    try {
      while (!ended && readyChars < HIGH_WATER) {
        const { done, value } = await reader.read();
        if (done) {
          take(cut.push(decoder.decode()));
          take(cut.rest());
          ended = true;
        } else {
          take(cut.push(decoder.decode(value, { stream: true })));
          if (cut.done) {
            ended = true;
            reader.cancel().catch(() => {});
          }
        }
        notify();
      }
    } catch (error) {
      failed = { error };
      ended = true;
    } finally {
      pumping = false;
      notify();
    }
  }

  return new ReadableStream<Uint8Array>(
    {
      start() {
        void pump();
      },
      async pull(controller) {
        while (readyChars === 0 && !ended) {
          if (!pumping) void pump();
          await new Promise<void>((resolve) => (wake = resolve));
        }
        if (readyChars > 0) {
          const piece = nextPiece();
          controller.enqueue(encoder.encode(rewrite ? rewrite(piece) : piece));
          if (!pumping && !ended) void pump();
          return;
        }
        if (failed) controller.error(failed.error);
        else controller.close();
      },
      cancel(reason) {
        ended = true;
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * A fetch whose event-stream response bodies end at `data: [DONE]`, read eagerly (see
 * above). `rewrite`: applied to each piece of whole lines before the parser sees it
 * (joinTextDeltas.ts for the OpenAI-compatible wire).
 */
export function fetchEndingAtDone(fetchImpl: FetchFunction, rewrite?: (piece: string) => string): FetchFunction {
  return async (input, init) => {
    const response = await fetchImpl(input, init);
    const type = response.headers.get('content-type') ?? '';
    if (!response.body || !/event-stream/i.test(type)) return response;
    return new Response(coalescedUntilDone(response.body, rewrite), {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
