/**
 * A server-sent events reader (the WHATWG event-stream rules that SNP2 streams use): lines
 * end with LF, CRLF or CR; `data:` lines of one event are joined with LF; a blank line
 * ends the event; comments (`:`) and other fields are ignored. Bytes are decoded as
 * UTF-8 across chunk boundaries, so a character split between two chunks is kept whole.
 */
export interface SseMessage {
  event: string;
  data: string;
}

export class SseReader {
  private readonly decoder = new TextDecoder('utf-8');
  private buffer = '';
  private data: string[] = [];
  private event = '';

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
    for (;;) {
      const m = /\r\n|\n|\r/.exec(this.buffer);
      // A lone CR at the end may be the first half of CRLF: wait for the next chunk.
      if (!m || (m[0] === '\r' && m.index === this.buffer.length - 1 && !final)) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      if (line === '') {
        if (this.data.length) out.push({ event: this.event || 'message', data: this.data.join('\n') });
        this.data = [];
        this.event = '';
        continue;
      }
      if (line.startsWith(':')) continue;
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      let value = colon < 0 ? '' : line.slice(colon + 1);
      if (value.startsWith(' ')) value = value.slice(1);
      if (field === 'data') this.data.push(value);
      else if (field === 'event') this.event = value;
    }
    return out;
  }
}
