import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChunk, applyChunks, fold, foldStateAt, initialFoldState, type FoldState } from '../../../src-preload/contract/fold';
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
});
