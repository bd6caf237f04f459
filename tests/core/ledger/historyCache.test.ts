import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fold } from '../../../src-preload/contract/fold';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { sessionStream } from '../contract/foldArbitrary';
import { tempLedger } from './support';

describe('the folded history kept per session (historyCache.ts)', () => {
  it('brought up to date chunk by chunk, it equals a fold from the first chunk, and a history handed out earlier never changes', async () => {
    const l = tempLedger();
    fc.assert(
      fc.property(sessionStream, fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 6 }), (chunks, reads) => {
        const s = l.createSession();
        const readAt = new Set(reads);
        const handedOut: { messages: unknown; copy: unknown }[] = [];
        chunks.forEach((chunk: StreamChunk, i) => {
          l.events.appendSync(s.id, null, chunk);
          if (readAt.has(i)) {
            const h = l.history(s.id);
            expect(h.lastSeq).toBe(i + 1);
            expect(h.messages).toStrictEqual(fold(chunks.slice(0, i + 1)));
            handedOut.push({ messages: h.messages, copy: structuredClone(h.messages) });
          }
        });
        const h = l.history(s.id);
        expect(h.lastSeq).toBe(chunks.length);
        expect(h.messages).toStrictEqual(fold(chunks));
        for (const earlier of handedOut) expect(earlier.messages).toStrictEqual(earlier.copy);
      }),
      { numRuns: 60 },
    );
  });

  it('keeps only the recently used sessions, and forgets a deleted one', () => {
    const l = tempLedger();
    const ids = Array.from({ length: 12 }, () => l.createSession().id);
    for (const id of ids) {
      l.events.appendSync(id, null, { type: 'user-message', messageId: `u-${id}`, text: 'hello' });
      l.history(id);
    }
    expect(l.historiesHeld()).toBe(8);
    l.deleteSession(ids[ids.length - 1]!);
    expect(l.historiesHeld()).toBe(7);
    // An evicted session folds again from its first chunk, to the same messages.
    expect(l.history(ids[0]!).messages).toStrictEqual(fold([{ type: 'user-message', messageId: `u-${ids[0]}`, text: 'hello' }]));
  });
});
