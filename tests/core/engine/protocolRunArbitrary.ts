import fc from 'fast-check';
import type { JsonPatchOperation, UIMessageChunk } from '../../../src-preload/contract/stream';
import { streamedBlockChunks } from '../contract/foldArbitrary';

/**
 * Random agent runs as our engine streams them inside the app (one assistant message):
 * steps of text, reasoning, tool calls (with approvals asked and denied) and data parts,
 * where a data part may be a cell that opens with a snapshot and then grows by many JSON
 * patches, interleaved at random with the other blocks. Some patches fail (the fold then
 * shows a data-error part). `null` entries mark the places where a flush timer fires.
 */
export type RunItem = UIMessageChunk | null;

const word = fc.string({ minLength: 0, maxLength: 5, unit: fc.constantFrom('a', 'b', '中', ' ', '"', '\\', '😀', '\n') });

type Block =
  | { kind: 'text' | 'reasoning'; deltas: string[] }
  | { kind: 'tool'; name: string; input: Record<string, string>; outcome: 'output' | 'error' | 'denied'; split: number }
  | { kind: 'cell'; id: string; opens: 'snapshot' | 'patch' | 'no'; pieces: { stream: 'stdout' | 'stderr'; text: string }[]; ends: boolean; bad: boolean }
  | { kind: 'data'; name: string; id: string | null; value: number; patch: boolean; transient: boolean };

const block: fc.Arbitrary<Block> = fc.oneof(
  fc.record({ kind: fc.constantFrom('text' as const, 'reasoning' as const), deltas: fc.array(word, { maxLength: 4 }) }),
  fc.record({
    kind: fc.constant('tool' as const),
    name: fc.constantFrom('list_dir', 'web_fetch'),
    input: fc.dictionary(fc.constantFrom('path', 'url'), word, { maxKeys: 2, noNullPrototype: true }),
    outcome: fc.constantFrom('output' as const, 'error' as const, 'denied' as const),
    split: fc.nat(12),
  }),
  fc.record({
    kind: fc.constant('cell' as const),
    id: fc.constantFrom('c1', 'c2'),
    opens: fc.constantFrom('snapshot' as const, 'patch' as const, 'no' as const),
    pieces: fc.array(fc.record({ stream: fc.constantFrom('stdout' as const, 'stderr' as const), text: word }), { maxLength: 30 }),
    ends: fc.boolean(),
    bad: fc.boolean(),
  }),
  fc.record({
    kind: fc.constant('data' as const),
    name: fc.constantFrom('data-host-call', 'data-evidence', 'data-run-status'),
    id: fc.option(fc.constantFrom('a', 'b'), { nil: null }),
    value: fc.nat(100),
    patch: fc.boolean(),
    transient: fc.boolean(),
  }),
);

function blockChunks(b: Block, uid: string): UIMessageChunk[] {
  switch (b.kind) {
    case 'text':
    case 'reasoning':
      return streamedBlockChunks(b, uid) as UIMessageChunk[];
    case 'tool': {
      const out = streamedBlockChunks(b, uid) as UIMessageChunk[];
      if (b.outcome === 'denied') {
        out.push({ type: 'tool-approval-request', toolCallId: uid, approvalId: `ap-${uid}` });
        out.push({ type: 'data-approval', id: `ap-${uid}`, data: { state: 'requested' } });
        out.push({ type: 'data-approval', id: `ap-${uid}`, data: { state: 'denied' } });
        out.push({ type: 'tool-output-denied', toolCallId: uid });
      }
      return out;
    }
    case 'cell': {
      const out: UIMessageChunk[] = [];
      const running = { code: uid, status: 'running', output: [] };
      if (b.opens === 'snapshot') out.push({ type: 'data-cell', id: b.id, data: running });
      // A first chunk may be a patch on the data it carries (a new part, made by a patch).
      if (b.opens === 'patch') out.push({ type: 'data-cell', id: b.id, data: running, patch: [{ op: 'add', path: '/opened', value: true }] });
      for (const piece of b.pieces) out.push({ type: 'data-cell', id: b.id, patch: [{ op: 'add', path: '/output/-', value: piece }] });
      // A patch that cannot apply: the part keeps its data and the fold shows an error part.
      if (b.bad) out.push({ type: 'data-cell', id: b.id, patch: [{ op: 'remove', path: '/missing' }] });
      if (b.ends) out.push({ type: 'data-cell', id: b.id, data: { code: uid, status: 'ok', stdout: b.pieces.map((p) => p.text).join('') } });
      return out;
    }
    case 'data': {
      const base = b.id === null ? {} : { id: b.id };
      const extra = b.transient ? { transient: true } : {};
      const patch: JsonPatchOperation[] = [{ op: 'add', path: '/n', value: b.value }];
      return [(b.patch ? { type: b.name, ...base, ...extra, patch } : { type: b.name, ...base, ...extra, data: { n: b.value } }) as UIMessageChunk];
    }
  }
}

function interleave(lists: UIMessageChunk[][], picks: number[]): UIMessageChunk[] {
  const queues = lists.map((l) => [...l]);
  const out: UIMessageChunk[] = [];
  let i = 0;
  for (;;) {
    const live = queues.filter((q) => q.length);
    if (!live.length) return out;
    out.push(live[(picks[i++ % Math.max(picks.length, 1)] ?? 0) % live.length]!.shift()!);
  }
}

const step = fc.record({
  blocks: fc.array(block, { maxLength: 4 }),
  picks: fc.array(fc.nat(7), { maxLength: 24 }),
  flushes: fc.array(fc.nat(60), { maxLength: 4 }),
});

/** One run: `start`, its steps, the run's metadata, `finish`; with flush points (`null`). */
export const agentRun: fc.Arbitrary<RunItem[]> = fc
  .record({ steps: fc.array(step, { maxLength: 4 }), status: fc.constantFrom('completed', 'failed') })
  .map(({ steps, status }) => {
    const items: RunItem[] = [{ type: 'start', messageId: 'run-1' }];
    steps.forEach((s, si) => {
      items.push({ type: 'start-step' });
      const chunks: RunItem[] = interleave(s.blocks.map((b, bi) => blockChunks(b, `${si}-${bi}`)), s.picks);
      for (const at of [...s.flushes].sort((a, b) => b - a)) chunks.splice(Math.min(at, chunks.length), 0, null);
      items.push(...chunks, { type: 'finish-step' });
    });
    // As the engine ends every run (the AI SDK reader shows a trailing empty step only after it).
    items.push({ type: 'message-metadata', messageMetadata: { run: { status } } });
    items.push({ type: 'finish', finishReason: 'stop' });
    return items;
  });
