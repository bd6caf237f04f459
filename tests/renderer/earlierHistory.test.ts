import { describe, expect, it } from 'vitest';
import type { ChunkPage } from '../../src-preload/contract/chunkPage';
import { fold } from '../../src-preload/contract/fold';
import type { StreamChunk } from '../../src-preload/contract/stream';
import { foldEarlier, type EarlierPageFetch } from '../../src-renderer/src/store/earlierHistory';

const S = 'session-1';
const turn = (n: number): StreamChunk[] => [
  { type: 'user-message', messageId: `u${n}`, text: `question ${n}` },
  { type: 'start', messageId: `a${n}` },
  { type: 'tool-input-start', toolCallId: `c${n}`, toolName: 'science_search' },
  { type: 'tool-input-delta', toolCallId: `c${n}`, inputTextDelta: '{"query":"IN' },
  { type: 'tool-input-delta', toolCallId: `c${n}`, inputTextDelta: 'S"}' },
  { type: 'text-start', id: 't' },
  { type: 'text-delta', id: 't', delta: `answer ${n}` },
  { type: 'text-end', id: 't' },
  { type: 'finish' },
];

/** A ledger of stored chunk texts served as `session.earlier` serves them. */
function ledger(texts: string[], seqOf = (i: number) => i + 1): EarlierPageFetch {
  return async ({ afterSeq, beforeSeq, limit }) => {
    const rows = texts.map((text, i) => ({ seq: seqOf(i), text })).filter((r) => r.seq > afterSeq && r.seq < beforeSeq);
    const page = rows.slice(0, limit);
    return { sessionId: S, seqs: page.map((r) => r.seq), runIds: page.map(() => null), lines: page.map((r) => r.text).join('\n'), complete: rows.length <= limit } satisfies ChunkPage;
  };
}

describe('folding the earlier history of a session opened at its end', () => {
  const chunks = [turn(0), turn(1), turn(2)].flat();

  it('folds page by page to exactly the fold of all the chunks before the tail, whatever the page size', async () => {
    const texts = chunks.map((c) => JSON.stringify(c));
    for (const pageSize of [1, 4, 9, 100]) {
      expect(await foldEarlier({ page: ledger(texts) }, S, 19, pageSize)).toEqual(fold(chunks.slice(0, 18)));
    }
  });

  it('refuses a history with a hole in its seqs, or that stops short, instead of showing it', async () => {
    const texts = chunks.map((c) => JSON.stringify(c));
    await expect(foldEarlier({ page: ledger(texts, (i) => (i < 5 ? i + 1 : i + 2)) }, S, 19, 4)).rejects.toThrow(/history before seq 19 came back incomplete; open it again/);
    await expect(foldEarlier({ page: ledger(texts.slice(0, 10)) }, S, 19, 4)).rejects.toThrow(/incomplete/);
  });

  it('names the seq of a stored chunk that is not JSON', async () => {
    const texts = chunks.map((c) => JSON.stringify(c));
    texts[6] = '{"type":"text-delta",';
    await expect(foldEarlier({ page: ledger(texts) }, S, 19, 4)).rejects.toThrow(/stored chunk at seq 7 of session session-1 is not JSON: the ledger file is damaged/);
  });

  it('refuses a page whose text does not split into one line per chunk (a damaged row holding a raw newline), naming its seqs', async () => {
    const texts = chunks.map((c) => JSON.stringify(c));
    texts[6] = '{"type":"text-delta",\n"id":"t"}';
    await expect(foldEarlier({ page: ledger(texts) }, S, 19, 4)).rejects.toThrow(/stored chunks of session session-1 from seq 5 to 8 are 4 but read as 5 lines: the ledger file is damaged/);
  });

  it('starts from the stored fold as far as it goes, folds the chunks after it, and ignores a stored fold that is damaged or out of range', async () => {
    const texts = chunks.map((c) => JSON.stringify(c));
    const asked: number[] = [];
    const page: EarlierPageFetch = (request) => (asked.push(request.afterSeq), ledger(texts)(request));
    const stored = (throughSeq: number, messages = JSON.stringify(fold(chunks.slice(0, throughSeq)))) => async () => ({ sessionId: S, throughSeq, messages });
    const whole = fold(chunks.slice(0, 18));
    // Turn 0 stored (seqs 1-9): the pages start after it.
    expect(await foldEarlier({ page, folded: stored(9) }, S, 19, 4)).toEqual(whole);
    expect(asked).toEqual([9, 13, 17]);
    // Everything before the tail stored: no page asked for.
    asked.length = 0;
    expect(await foldEarlier({ page, folded: stored(18) }, S, 19, 4)).toEqual(whole);
    expect(asked).toEqual([]);
    // Not JSON, not an array, or reaching into the tail: the chunks are folded from seq 1.
    for (const bad of [stored(9, '[{"id":'), stored(9, '{}'), stored(19), stored(-1)]) {
      asked.length = 0;
      expect(await foldEarlier({ page, folded: bad }, S, 19, 4)).toEqual(whole);
      expect(asked[0]).toBe(0);
    }
  });
});
