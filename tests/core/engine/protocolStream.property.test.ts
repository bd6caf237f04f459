import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold } from '../../../src-preload/contract/fold';
import type { UIMessageChunk } from '../../../src-preload/contract/stream';
import { protocolConverter } from '../../../src-main/core/engine/protocolStream';
import { SSE_DONE, sseEvent } from '../../../src-main/core/engine/sse';
import { readWithAiSdk } from '../contract/uiStreamSupport';
import { agentRun, type RunItem } from './protocolRunArbitrary';

/** Runs the converter over a run; `null` items are flush-timer ticks. */
function convert(items: RunItem[]): UIMessageChunk[] {
  const converter = protocolConverter();
  const out: UIMessageChunk[] = [];
  for (const item of items) out.push(...(item === null ? converter.flush() : converter.push(item)));
  out.push(...converter.flush());
  return out;
}

const plain = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('protocol stream: our internal chunks as the AI SDK UI message stream (property)', () => {
  it('is read whole by readUIMessageStream and ends as our fold of the internal chunks', async () => {
    await fc.assert(
      fc.asyncProperty(agentRun, async (items) => {
        const internal = items.filter((c): c is UIMessageChunk => c !== null);
        const wire = convert(items);
        // The protocol's shape: no patches, every data chunk carries its data.
        for (const c of wire) {
          expect(c).not.toHaveProperty('patch');
          if (c.type.startsWith('data-')) expect(c).toHaveProperty('data');
        }
        const { message, errors } = await readWithAiSdk(wire.map(sseEvent).join('') + SSE_DONE);
        expect(errors).toEqual([]);
        expect(plain(message)).toEqual(plain(fold(internal).at(-1)));
      }),
      { numRuns: 150 },
    );
  });

  it('never sends more data snapshots than the internal stream had data chunks', () => {
    fc.assert(
      fc.property(agentRun, (items) => {
        const count = (chunks: readonly RunItem[]) => chunks.filter((c) => c !== null && c.type.startsWith('data-')).length;
        expect(count(convert(items))).toBeLessThanOrEqual(count(items));
      }),
      { numRuns: 200 },
    );
  });
});
