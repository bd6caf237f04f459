import { afterEach, describe, expect, it, vi } from 'vitest';
import { dataPatchChunk } from '../../../src-preload/contract/dataParts';
import { fold } from '../../../src-preload/contract/fold';
import type { UIMessageChunk } from '../../../src-preload/contract/stream';
import { protocolSink } from '../../../src-main/core/engine/protocolSink';
import { protocolConverter } from '../../../src-main/core/engine/protocolStream';

const running = { language: 'python' as const, code: 'for i in range(10000): print(i)', status: 'running' as const, output: [] };
const line = (i: number) => dataPatchChunk('cell', 'c1', [{ op: 'add', path: '/output/-', value: { stream: 'stdout', text: `${i}\n` } }]);
const cellChunks = (chunks: UIMessageChunk[]) => chunks.filter((c) => c.type === 'data-cell');

afterEach(() => {
  vi.useRealTimers();
});

describe('protocol converter: patches become coalesced snapshots', () => {
  it('turns a cell printing 10k lines into one snapshot, equal to what the fold makes of the patches', () => {
    const internal: UIMessageChunk[] = [
      { type: 'start', messageId: 'run-1' },
      { type: 'start-step' },
      { type: 'data-cell', id: 'c1', data: running },
      ...Array.from({ length: 10_000 }, (_, i) => line(i)),
      { type: 'finish-step' },
      { type: 'finish' },
    ];
    const converter = protocolConverter();
    const wire = internal.flatMap((c) => converter.push(c));
    expect(converter.pending).toBe(false);
    const cells = cellChunks(wire);
    // The opening snapshot, then one snapshot for all 10k patches (sent before finish-step).
    expect(cells).toHaveLength(2);
    expect(wire.indexOf(cells[1]!)).toBe(wire.findIndex((c) => c.type === 'finish-step') - 1);
    expect(cells[1]).toEqual({ type: 'data-cell', id: 'c1', data: (fold(internal)[0]!.parts[1] as { data: unknown }).data });
    expect((cells[1] as { data: { output: unknown[] } }).data.output).toHaveLength(10_000);
  });

  it('holds nothing back from a part that is not patched, and sends what is held on flush()', () => {
    const converter = protocolConverter();
    expect(converter.push({ type: 'start' })).toEqual([{ type: 'start' }]);
    expect(converter.push({ type: 'data-cell', id: 'c1', data: running })).toEqual([{ type: 'data-cell', id: 'c1', data: running }]);
    expect(converter.push(line(0))).toEqual([]);
    expect(converter.push(line(1))).toEqual([]);
    expect(converter.pending).toBe(true);
    expect(converter.flush()).toEqual([{ type: 'data-cell', id: 'c1', data: { ...running, output: [{ stream: 'stdout', text: '0\n' }, { stream: 'stdout', text: '1\n' }] } }]);
    expect(converter.flush()).toEqual([]);
  });

  it('reports a patch that cannot apply as the fold does, and keeps the part as it was', () => {
    const converter = protocolConverter();
    converter.push({ type: 'start' });
    converter.push({ type: 'data-cell', id: 'c1', data: running });
    const out = converter.push({ type: 'data-cell', id: 'c1', patch: [{ op: 'remove', path: '/missing' }] });
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ type: 'data-error', data: { errorText: expect.stringMatching(/^patch of data-cell "c1" failed/) } });
    expect(converter.pending).toBe(false);
  });
});

describe('protocol sink: the converter on a clock', () => {
  it('sends a held snapshot after the flush interval, and the rest at end()', () => {
    vi.useFakeTimers();
    const sent: UIMessageChunk[] = [];
    const sink = protocolSink((c) => sent.push(c), 250);
    sink.push({ type: 'start' });
    sink.push({ type: 'data-cell', id: 'c1', data: running });
    for (let i = 0; i < 100; i++) sink.push(line(i));
    expect(cellChunks(sent)).toHaveLength(1);
    vi.advanceTimersByTime(250);
    expect(cellChunks(sent)).toHaveLength(2);
    expect((sent.at(-1) as { data: { output: unknown[] } }).data.output).toHaveLength(100);
    sink.push(line(100));
    sink.end();
    expect(cellChunks(sent)).toHaveLength(3);
    expect((sent.at(-1) as { data: { output: unknown[] } }).data.output).toHaveLength(101);
    // Nothing fires after the end.
    vi.advanceTimersByTime(1000);
    expect(cellChunks(sent)).toHaveLength(3);
  });
});
