import { describe, expect, it } from 'vitest';
import { SSE_LIMITS, SseReader, SseTooLarge } from '../../../../src-main/core/science/navigator/sse';

const bytes = (s: string) => new TextEncoder().encode(s);

describe('SseReader limits', () => {
  it('an endless line arriving in 64 KiB chunks ends the read at the line limit, naming it', () => {
    const reader = new SseReader();
    const chunk = bytes(`data:${'x'.repeat(64 * 1024)}`);
    let thrown: unknown = null;
    let pushed = 0;
    try {
      for (; pushed < 100; pushed++) reader.push(chunk);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(SseTooLarge);
    expect((thrown as Error).message).toBe('the stream sent a line over 1,048,576 characters, the most the app reads in one; the stream was dropped');
    // Stopped at the limit, not after the stream's end.
    expect(pushed * chunk.length).toBeLessThanOrEqual(SSE_LIMITS.maxLineChars);
    expect((pushed + 1) * chunk.length).toBeGreaterThan(SSE_LIMITS.maxLineChars);
  });

  it('an event of many short data lines ends the read at the event limit', () => {
    const reader = new SseReader();
    const lines = `data:${'y'.repeat(1000)}\n`.repeat(2000);
    expect(() => reader.push(bytes(lines))).toThrow(/the stream sent an event over 1,048,576 characters/);
  });

  it('a long line under the limit split across many chunks, with CRLF split between chunks, is read whole', () => {
    const reader = new SseReader();
    const payload = 'z'.repeat(900_000);
    const text = `event:data\r\ndata:${payload}\r\n\r\n`;
    const out = [];
    for (let i = 0; i < text.length; i += 4093) out.push(...reader.push(bytes(text.slice(i, i + 4093))));
    expect(out).toEqual([{ event: 'data', data: payload }]);
    // A limit set lower applies to the same input.
    const small = new SseReader({ maxLineChars: 1000, maxEventChars: 1000 });
    expect(() => small.push(bytes(text))).toThrow(SseTooLarge);
  });

  it('keeps the usual rules: LF, CR and CRLF ends, comments, multi-line data, no dispatch without the blank line', () => {
    const reader = new SseReader();
    const out = reader.push(bytes(': hi\rdata: a\ndata: b\r\n\r\nevent: x\ndata: c\n\ndata: tail'));
    expect(out).toEqual([
      { event: 'message', data: 'a\nb' },
      { event: 'x', data: 'c' },
    ]);
    expect(reader.end()).toEqual([]);
  });
});
