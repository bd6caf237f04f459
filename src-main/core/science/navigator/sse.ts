/**
 * A server-sent events reader (the WHATWG event-stream rules that SNP2 streams use): lines
 * end with LF, CRLF or CR; `data:` lines of one event are joined with LF; a blank line
 * ends the event; comments (`:`) and other fields are ignored. Bytes are decoded as
 * UTF-8 across chunk boundaries, so a character split between two chunks is kept whole.
 *
 * The stream is the service's (or whatever answers at the configured address): a line or
 * an event over SSE_LIMITS ends the read with SseTooLarge, so an endless line cannot grow
 * the app's memory. Each chunk is scanned once for line ends (a long line arriving in many
 * chunks is not rescanned from its start).
 */
export interface SseMessage {
  event: string;
  data: string;
}

export const SSE_LIMITS = { maxLineChars: 1024 * 1024, maxEventChars: 1024 * 1024 };

export class SseTooLarge extends Error {
  constructor(what: string, limit: number) {
    super(`the stream sent ${what} over ${limit.toLocaleString('en-US')} characters, the most the app reads in one; the stream was dropped`);
    this.name = 'SseTooLarge';
  }
}

export class SseReader {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  /** Characters at the start of `buffer` already known to hold no line end. */
  private scanned = 0;
  private data: string[] = [];
  private dataChars = 0;
  private event = '';

  constructor(private readonly limits = SSE_LIMITS) {}

  /** The events completed by this chunk of bytes. */
  push(bytes: Uint8Array): SseMessage[] {
    this.buffer += this.decoder.decode(bytes, { stream: true });
    return this.drain(false);
  }

  /** The end of the stream: a last event without its blank line is not dispatched (per the rules). */
  end(): SseMessage[] {
    this.buffer += this.decoder.decode();
    return this.drain(true);
  }

  private drain(final: boolean): SseMessage[] {
    const out: SseMessage[] = [];
    const buf = this.buffer;
    const eol = /\r\n|\n|\r/g;
    eol.lastIndex = this.scanned;
    let start = 0;
    let waitForLf = false;
    for (let m = eol.exec(buf); m; m = eol.exec(buf)) {
      // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
      if (m[0] === '\r' && m.index === buf.length - 1 && !final) {
        waitForLf = true;
        break;
      }
      if (m.index - start > this.limits.maxLineChars) throw new SseTooLarge('a line', this.limits.maxLineChars);
      this.line(buf.slice(start, m.index), out);
      start = m.index + m[0].length;
    }
    this.buffer = buf.slice(start);
    this.scanned = waitForLf ? this.buffer.length - 1 : this.buffer.length;
    if (this.buffer.length > this.limits.maxLineChars) throw new SseTooLarge('a line', this.limits.maxLineChars);
    return out;
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.data.length) out.push({ event: this.event || 'message', data: this.data.join('\n') });
      this.data = [];
      this.dataChars = 0;
      this.event = '';
      return;
    }
    if (line.startsWith(':')) return;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'data') {
      this.dataChars += value.length + 1;
      if (this.dataChars > this.limits.maxEventChars) throw new SseTooLarge('an event', this.limits.maxEventChars);
      this.data.push(value);
    } else if (field === 'event') this.event = value;
  }
}
