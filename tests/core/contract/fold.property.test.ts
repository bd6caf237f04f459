import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChunk, applyChunks, applyChunksNotingTurns, fold, foldStateAt, initialFoldState, type FoldState } from '../../../src-preload/contract/fold';
import type { UIMessage } from '../../../src-preload/contract/stream';
import { batchSizes, inBatches, sessionStream } from './foldArbitrary';

describe('fold: stream equals history (property)', () => {
  it('folding all at once equals folding chunk by chunk and in any batches', () => {
    fc.assert(
      fc.property(sessionStream, batchSizes, (chunks, sizes) => {
        const all = fold(chunks);
        const oneByOne = chunks.reduce(applyChunk, initialFoldState);
        expect(oneByOne.messages).toEqual(all);
        expect(oneByOne.applied).toBe(chunks.length);
        const batched = inBatches(chunks, sizes).reduce(applyChunks, initialFoldState);
        expect(batched).toEqual(applyChunks(initialFoldState, chunks));
      }),
      { numRuns: 300 },
    );
  });

  it('never changes an earlier state while folding on (copy on write is sound)', () => {
    fc.assert(
      fc.property(sessionStream, batchSizes, (chunks, sizes) => {
        const states: FoldState[] = [initialFoldState];
        const snapshots: string[] = [JSON.stringify(initialFoldState)];
        for (const batch of inBatches(chunks, sizes)) {
          const next = applyChunks(states[states.length - 1]!, batch);
          states.push(next);
          snapshots.push(JSON.stringify(next));
        }
        states.forEach((s, i) => expect(JSON.stringify(s)).toBe(snapshots[i]));
      }),
      { numRuns: 200 },
    );
  });

  it('a tail folded from a user turn continues the head exactly: fold(all) = fold(head) ++ fold of the tail from foldStateAt(head.length)', () => {
    fc.assert(
      fc.property(sessionStream, (chunks) => {
        const whole = applyChunks(initialFoldState, chunks);
        chunks.forEach((chunk, at) => {
          if (chunk.type !== 'user-message') return;
          const tail = applyChunks(foldStateAt(at), chunks.slice(at));
          expect([...fold(chunks.slice(0, at)), ...tail.messages]).toEqual(whole.messages);
          expect({ ...tail, messages: [] }).toEqual({ ...whole, messages: [] });
        });
      }),
      { numRuns: 300 },
    );
  });

  it('stored turn by turn as JSON, then the rest folded from foldStateAt, a history equals the whole fold (ledger/historyFolds.ts)', () => {
    const json = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;
    fc.assert(
      // `cut`: tool calls whose run stopped while their arguments streamed (a partial input still to parse when the next turn starts).
      fc.property(sessionStream, batchSizes, fc.boolean(), (streamed, sizes, cut) => {
        const chunks = cut ? streamed.filter((c) => c.type !== 'tool-input-available') : streamed;
        // As ledger/historyFolds.ts stores it: batch by batch, a segment per turn that has ended.
        let state: FoldState = initialFoldState;
        const stored: UIMessage[] = [];
        let through = 0;
        for (const batch of inBatches(chunks, sizes)) {
          const { state: after, turns } = applyChunksNotingTurns(state, batch);
          let kept = 0;
          for (const turn of turns) {
            expect(chunks[turn.applied]!.type).toBe('user-message');
            // The messages before the turn, stored at once, are what the whole fold ends with there.
            stored.push(...(json(after.messages.slice(kept, turn.messages)) as UIMessage[]));
            expect(stored).toEqual(json(fold(chunks).slice(0, stored.length)));
            through = turn.applied;
            kept = turn.messages;
          }
          state = { ...after, messages: after.messages.slice(kept) };
        }
        const rest = applyChunks(foldStateAt(through), chunks.slice(through)).messages;
        expect(json([...stored, ...rest])).toEqual(json(fold(chunks)));
      }),
      { numRuns: 300 },
    );
  });
});
