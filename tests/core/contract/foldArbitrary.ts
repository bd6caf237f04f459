import fc from 'fast-check';
import type { StreamChunk } from '../../../src-preload/contract/stream';

/**
 * Random valid session streams: user turns, assistant turns of several steps, and inside a
 * step text / reasoning / tool / data / source / file / error blocks whose chunks are
 * interleaved at random (each block keeps its own order, as a real stream does).
 */
const word = fc.string({ minLength: 0, maxLength: 6, unit: fc.constantFrom('a', 'b', '中', '文', ' ', '"', '\\', '😀', '\n') });

type BlockSpec =
  | { kind: 'text' | 'reasoning'; deltas: string[] }
  | { kind: 'tool'; name: string; input: Record<string, string>; outcome: 'output' | 'error' | 'none'; split: number }
  | { kind: 'data'; name: string; id: string | null; value: number; patch: boolean }
  | { kind: 'source' | 'file' | 'error'; text: string };

const block: fc.Arbitrary<BlockSpec> = fc.oneof(
  fc.record({ kind: fc.constantFrom('text' as const, 'reasoning' as const), deltas: fc.array(word, { maxLength: 4 }) }),
  fc.record({
    kind: fc.constant('tool' as const),
    name: fc.constantFrom('science_search', 'web_fetch', 'save_artifact'),
    input: fc.dictionary(fc.constantFrom('q', 'db', 'limit'), word, { maxKeys: 3, noNullPrototype: true }),
    outcome: fc.constantFrom('output' as const, 'error' as const, 'none' as const),
    split: fc.nat(20),
  }),
  fc.record({
    kind: fc.constant('data' as const),
    name: fc.constantFrom('data-thinking-step', 'data-cell', 'data-run-status'),
    id: fc.option(fc.constantFrom('a', 'b'), { nil: null }),
    value: fc.nat(100),
    patch: fc.boolean(),
  }),
  fc.record({ kind: fc.constantFrom('source' as const, 'file' as const, 'error' as const), text: word }),
);

/** A text or reasoning block, or a tool call with its outcome, as the chunks a run streams (shared by the fold and protocol arbitraries). */
export function streamedBlockChunks(
  b: { kind: 'text' | 'reasoning'; deltas: string[] } | { kind: 'tool'; name: string; input: unknown; split: number; outcome: string },
  uid: string,
): StreamChunk[] {
  if (b.kind !== 'tool') {
    return [
      { type: `${b.kind}-start`, id: uid },
      ...b.deltas.map((delta) => ({ type: `${b.kind}-delta` as const, id: uid, delta })),
      { type: `${b.kind}-end`, id: uid },
    ] as StreamChunk[];
  }
  const json = JSON.stringify(b.input);
  const cut = Math.min(b.split, json.length);
  const out: StreamChunk[] = [
    { type: 'tool-input-start', toolCallId: uid, toolName: b.name },
    { type: 'tool-input-delta', toolCallId: uid, inputTextDelta: json.slice(0, cut) },
    { type: 'tool-input-delta', toolCallId: uid, inputTextDelta: json.slice(cut) },
    { type: 'tool-input-available', toolCallId: uid, toolName: b.name, input: b.input },
  ];
  if (b.outcome === 'output') out.push({ type: 'tool-output-available', toolCallId: uid, output: { n: json.length } });
  if (b.outcome === 'error') out.push({ type: 'tool-output-error', toolCallId: uid, errorText: `failed ${uid}` });
  return out;
}

function blockChunks(b: BlockSpec, uid: string): StreamChunk[] {
  switch (b.kind) {
    case 'text':
    case 'reasoning':
    case 'tool':
      return streamedBlockChunks(b, uid);
    case 'data': {
      const base = b.id === null ? {} : { id: b.id };
      if (b.patch) return [{ type: b.name, ...base, patch: [{ op: 'add', path: '/n', value: b.value }] } as StreamChunk];
      return [{ type: b.name, ...base, data: { n: b.value, items: [b.value] } } as StreamChunk];
    }
    case 'source':
      return [{ type: 'source-url', sourceId: uid, url: `https://example.org/${uid}`, title: b.text }];
    case 'file':
      return [{ type: 'file', url: `data:text/plain,${encodeURIComponent(b.text)}`, mediaType: 'text/plain' }];
    case 'error':
      return [{ type: 'error', errorText: `error ${b.text}` }];
  }
}

function interleave(lists: StreamChunk[][], picks: number[]): StreamChunk[] {
  const queues = lists.map((l) => [...l]);
  const out: StreamChunk[] = [];
  let i = 0;
  for (;;) {
    const live = queues.filter((q) => q.length);
    if (!live.length) return out;
    out.push(live[(picks[i++ % Math.max(picks.length, 1)] ?? 0) % live.length]!.shift()!);
  }
}

const step = fc.record({ blocks: fc.array(block, { maxLength: 4 }), picks: fc.array(fc.nat(7), { maxLength: 24 }) });
const turn = fc.record({
  user: fc.option(word, { nil: null }),
  messageId: fc.boolean(),
  steps: fc.array(step, { maxLength: 3 }),
  end: fc.constantFrom('finish' as const, 'abort' as const, 'none' as const),
});

/** One session stream, as chunks. */
export const sessionStream: fc.Arbitrary<StreamChunk[]> = fc.array(turn, { minLength: 1, maxLength: 4 }).map((turns) => {
  const chunks: StreamChunk[] = [];
  turns.forEach((t, ti) => {
    if (t.user !== null) chunks.push({ type: 'user-message', messageId: `u${ti}`, text: t.user });
    chunks.push(t.messageId ? { type: 'start', messageId: `m${ti}` } : { type: 'start' });
    t.steps.forEach((s, si) => {
      chunks.push({ type: 'start-step' });
      chunks.push(...interleave(s.blocks.map((b, bi) => blockChunks(b, `${ti}-${si}-${bi}`)), s.picks));
      chunks.push({ type: 'finish-step' });
    });
    if (t.end === 'finish') chunks.push({ type: 'finish', finishReason: 'stop' });
    if (t.end === 'abort') chunks.push({ type: 'abort', reason: 'stopped' });
  });
  return chunks;
});

/** Cut points that split a chunk list into consecutive batches. */
export const batchSizes = fc.array(fc.integer({ min: 1, max: 8 }), { minLength: 1, maxLength: 10 });

export function inBatches<T>(items: T[], sizes: number[]): T[][] {
  const out: T[][] = [];
  for (let i = 0, k = 0; i < items.length; k++) {
    const n = sizes[k % sizes.length]!;
    out.push(items.slice(i, i + n));
    i += n;
  }
  return out;
}
