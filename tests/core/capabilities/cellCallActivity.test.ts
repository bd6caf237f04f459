import { describe, expect, it } from 'vitest';
import type { HostCallEventData } from '../../../src-preload/contract/approvals';
import { dataPartSchemas } from '../../../src-preload/contract/dataParts';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { CELL_LINE_REFRESH_MS, CellCallActivity } from '../../../src-main/core/capabilities/cellCallActivity';

const ok = (over: Partial<HostCallEventData> = {}): HostCallEventData => ({
  origin: 'cell',
  method: 'read_file',
  tool: 'read_text_file',
  target: 'notes.txt',
  status: 'ok',
  decidedBy: 'default',
  cellId: 'c1',
  durationMs: 2,
  ...over,
});

function harness() {
  let clock = 1_000;
  const activity = new CellCallActivity(() => clock);
  const sent: StreamChunk[] = [];
  const cell = new AbortController();
  const ctx = { cellId: 'c1', signal: cell.signal, emit: (c: StreamChunk) => sent.push(c) };
  const lines = () => sent.map((c) => c as unknown as { id: string; data: HostCallEventData });
  return { activity, sent, cell, ctx, lines, advance: (ms: number) => (clock += ms) };
}

describe('a cell’s host-call activity lines', () => {
  it('a burst of identical calls is one line whose count and total time grow, sent first at once and last when the cell ends', () => {
    const h = harness();
    for (let i = 0; i < 1_000; i++) h.activity.report(h.ctx, ok(), `c1:${i}:read_file`);
    expect(h.lines()).toHaveLength(1); // the first call, straight away
    expect(h.lines()[0]!.data.count).toBe(1);
    h.cell.abort(new Error('the cell ended'));
    const last = h.lines().at(-1)!;
    expect(h.lines()).toHaveLength(2);
    expect(last.id).toBe('c1:0:read_file'); // the same part, updated in place
    expect(last.data.count).toBe(1_000);
    expect(last.data.durationMs).toBe(2_000);
  });

  it('a long burst re-sends its line at most every refresh interval while the cell runs', () => {
    const h = harness();
    h.activity.report(h.ctx, ok(), 'a');
    h.activity.report(h.ctx, ok(), 'b');
    expect(h.sent).toHaveLength(1);
    h.advance(CELL_LINE_REFRESH_MS);
    h.activity.report(h.ctx, ok(), 'c');
    expect(h.sent).toHaveLength(2);
    expect(h.lines()[1]!.data.count).toBe(3);
    h.cell.abort();
    expect(h.sent).toHaveLength(2); // nothing unsent: no repeat at the end
  });

  it('failed, refused, approved and tool calls keep a line each; different targets get their own line', () => {
    const h = harness();
    h.activity.report(h.ctx, ok({ status: 'error' }), 'e1');
    h.activity.report(h.ctx, ok({ status: 'error' }), 'e2');
    h.activity.report(h.ctx, ok({ decidedBy: 'user', approvalWaitMs: 40 }), 'u1');
    h.activity.report({ ...h.ctx, cellId: undefined }, ok({ origin: 'tool', cellId: undefined, toolCallId: 't1' }), 't1');
    h.activity.report(h.ctx, ok({ target: 'a.txt' }), 'a');
    h.activity.report(h.ctx, ok({ target: 'b.txt' }), 'b');
    expect(h.lines().map((l) => l.id)).toEqual(['e1', 'e2', 'u1', 't1', 'a', 'b']);
  });

  it('every line it sends is a valid host-call part of the stream contract', () => {
    const h = harness();
    for (let i = 0; i < 3; i++) h.activity.report(h.ctx, ok(), `x${i}`);
    h.cell.abort();
    for (const chunk of h.sent) expect(dataPartSchemas['host-call'].safeParse((chunk as unknown as { data: unknown }).data).success, JSON.stringify(chunk)).toBe(true);
  });

  it('calls made after the cell ended (a late answer) are sent on their own, not held for an end that has passed', () => {
    const h = harness();
    h.activity.report(h.ctx, ok(), 'first');
    h.cell.abort();
    h.activity.report(h.ctx, ok(), 'late');
    expect(h.lines().map((l) => l.id)).toEqual(['first', 'late']);
  });
});
