import { afterEach, describe, expect, it, vi } from 'vitest';
import { fold } from '../../../src-preload/contract/fold';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { ToolInputCoalescer } from '../../../src-main/core/runner/toolInputCoalescer';

afterEach(() => {
  vi.useRealTimers();
});

function recorder() {
  const written: { sessionId: string; runId: string; chunk: StreamChunk }[] = [];
  const c = new ToolInputCoalescer((sessionId, runId, chunk) => written.push({ sessionId, runId, chunk }), 10, 50);
  return { c, written, chunks: () => written.map((w) => w.chunk) };
}

const delta = (toolCallId: string, inputTextDelta: string): StreamChunk => ({ type: 'tool-input-delta', toolCallId, inputTextDelta });

describe('tool-input delta coalescing', () => {
  it('merges consecutive pieces of one call, writes them before any other chunk, and folds to the same messages', () => {
    const { c, chunks } = recorder();
    const stream: StreamChunk[] = [
      { type: 'start', messageId: 'a' },
      { type: 'tool-input-start', toolCallId: 'x', toolName: 'f' },
      delta('x', '{"a"'),
      delta('x', ':1'),
      { type: 'tool-input-start', toolCallId: 'y', toolName: 'g' },
      delta('y', '{"b":'),
      delta('x', ',"c":2}'),
      delta('y', '2}'),
      { type: 'finish', finishReason: 'stop' },
    ];
    for (const chunk of stream) c.push('s', 'r', chunk);
    expect(chunks()).toEqual([
      stream[0],
      stream[1],
      delta('x', '{"a":1'),
      stream[4],
      delta('y', '{"b":'),
      delta('x', ',"c":2}'),
      delta('y', '2}'),
      stream[8],
    ]);
    expect(fold(chunks())).toEqual(fold(stream));
  });

  it('writes a merged piece once it reaches the size limit, and a held piece after the delay', () => {
    vi.useFakeTimers();
    const { c, chunks } = recorder();
    for (const piece of ['0123', '4567', '89ab', 'cd']) c.push('s', 'r', delta('x', piece));
    // 12 characters reached the limit of 10: written at once; 'cd' is held.
    expect(chunks()).toEqual([delta('x', '0123456789ab')]);
    vi.advanceTimersByTime(49);
    expect(chunks()).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(chunks()).toEqual([delta('x', '0123456789ab'), delta('x', 'cd')]);
  });

  it('keeps sessions apart and never merges across runs', () => {
    const { c, written } = recorder();
    c.push('s1', 'r1', delta('x', 'a'));
    c.push('s2', 'r2', delta('x', 'b'));
    c.push('s1', 'r3', delta('x', 'c'));
    c.flushAll();
    // Each session's order is kept (sessions have their own seq, so their relative order is free).
    expect(written).toEqual([
      { sessionId: 's1', runId: 'r1', chunk: delta('x', 'a') },
      { sessionId: 's2', runId: 'r2', chunk: delta('x', 'b') },
      { sessionId: 's1', runId: 'r3', chunk: delta('x', 'c') },
    ]);
  });
});
