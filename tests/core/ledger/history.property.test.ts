import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { applyChunk, fold, initialFoldState } from '../../../src-preload/contract/fold';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { sessionStream } from '../contract/foldArbitrary';
import { tempLedger } from './support';

describe('stream equals history through the database (property)', () => {
  it('history read back from the ledger equals the live fold of the same chunks', async () => {
    const l = tempLedger({ events: { groupCommitMs: 1 } });
    await fc.assert(
      fc.asyncProperty(sessionStream, fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }), async (chunks, syncPattern) => {
        const s = l.createSession();
        // What the renderer does: apply each chunk as it is broadcast, with its seq.
        let live = initialFoldState;
        const durable: Promise<void>[] = [];
        chunks.forEach((chunk: StreamChunk, i) => {
          const stored = syncPattern[i % syncPattern.length]
            ? l.events.appendSync(s.id, null, chunk)
            : (() => {
                const e = l.events.enqueue(s.id, null, chunk);
                durable.push(e.durable);
                return e.event;
              })();
          expect(stored.seq).toBe(i + 1);
          live = applyChunk(live, stored.chunk);
        });
        await Promise.all(durable);
        const history = l.history(s.id);
        expect(history.lastSeq).toBe(chunks.length);
        expect(history.messages).toStrictEqual(live.messages);
        expect(history.messages).toStrictEqual(fold(chunks));
      }),
      { numRuns: 60 },
    );
  });
});
