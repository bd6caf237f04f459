import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LiveRuns } from '../../../src-main/core/engine/liveRuns';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import type { LanguageModelPort, LlmRequest, Part } from '../../../src-main/core/llm/types';
import { inSlices, responsiveModel } from '../../../src-main/core/runner/responsiveModel';
import { SessionRunner } from '../../../src-main/core/runner/sessionRunner';
import { finish, toolCall, validAnswer } from '../../support/mockModel';

/** A stream whose parts are all ready at once (one network read of many events): it never awaits. */
async function* ready(n: number, closed: { done: boolean } = { done: false }): AsyncGenerator<number> {
  try {
    for (let i = 0; i < n; i++) yield i;
  } finally {
    closed.done = true;
  }
}

/** Consumes the stream and notes how many parts had been taken when a macrotask got to run. */
async function consumeWatchingTheLoop(parts: AsyncIterable<number>): Promise<{ seen: number[]; macrotaskRanAfter: number | null }> {
  const seen: number[] = [];
  let macrotaskRanAfter: number | null = null;
  setImmediate(() => (macrotaskRanAfter = seen.length));
  for await (const part of parts) seen.push(part);
  return { seen, macrotaskRanAfter };
}

describe('a run consumes its model stream in slices', () => {
  it('without slices a ready stream holds the event loop to its end; in slices a macrotask runs before the first part and in between, and the parts are unchanged', async () => {
    const whole = await consumeWatchingTheLoop(ready(1000));
    expect(whole.macrotaskRanAfter).toBeNull(); // nothing else ran while the 1000 parts were consumed

    // The loop turns before the request (the turn's preparation is a slice of its own), then
    // after every part: a slice of 0 ms is used up by each.
    const sliced = await consumeWatchingTheLoop(inSlices(ready(1000), 0));
    expect(sliced.seen).toEqual([...Array(1000).keys()]);
    expect(sliced.macrotaskRanAfter).toBe(0);
  });

  it('stopping early closes the provider stream (its finally runs)', async () => {
    const closed = { done: false };
    for await (const part of inSlices(ready(100, closed), 0)) if (part === 3) break;
    expect(closed.done).toBe(true);
  });

  it('the responsive model keeps the identity of the model and passes each request through', async () => {
    const requests: LlmRequest[] = [];
    const model: LanguageModelPort = {
      providerId: 'mock',
      model: 'm-1',
      baseUrl: 'memory://m',
      async *stream(request) {
        requests.push(request);
        yield { type: 'text-delta', text: 'a' } satisfies Part;
        yield { type: 'text-delta', text: 'b' } satisfies Part;
      },
    };
    const wrapped = responsiveModel(model, 0);
    expect([wrapped.providerId, wrapped.model, wrapped.baseUrl]).toEqual(['mock', 'm-1', 'memory://m']);
    const request = { messages: [], system: 's', tools: [] } as unknown as LlmRequest;
    const parts: Part[] = [];
    for await (const part of wrapped.stream(request)) parts.push(part);
    expect(parts).toEqual([
      { type: 'text-delta', text: 'a' },
      { type: 'text-delta', text: 'b' },
    ]);
    expect(requests).toEqual([request]);
  });
});

describe('the session runner streams in slices', () => {
  it('a model stream that is all ready at once still lets other work run during the run, and every chunk is stored and published in order', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-slices-'));
    const ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
    try {
      let turn = 0;
      const model: LanguageModelPort = {
        providerId: 'mock',
        model: 'ready',
        baseUrl: 'memory://ready',
        async *stream() {
          if (turn++ === 0) {
            for (let i = 0; i < 500; i++) yield { type: 'text-delta', text: `${i} ` } satisfies Part;
            yield finish('tool-calls');
          } else {
            yield* toolCall('f', 'finalize_response', validAnswer);
            yield finish();
          }
        },
      };
      const published: number[] = [];
      const runner = new SessionRunner({
        ledger,
        createModel: () => model,
        executor: { executeBatch: async () => [] },
        kernel: { executeCell: async () => ({ ok: false, summary: 'no kernels here' }) },
        evidenceFor: () => ({ missing: (ids) => [...ids] }),
        tools: () => [],
        systemPrompt: () => 'system',
        liveRuns: new LiveRuns(),
        publish: (e) => published.push(e.seq),
        streamSliceMs: 0,
      });
      const session = ledger.createSession();
      const run = runner.submit({ sessionId: session.id, mutationId: 'm', message: 'go' });
      let deltasStoredWhenMacrotaskRan: number | null = null;
      const countDeltas = () => ledger.db.prepare(`SELECT COUNT(*) FROM stream_events WHERE type = 'text-delta'`).pluck().get() as number;
      // Scheduled once the stream has begun: it must run before the 500 deltas are all consumed.
      const started = new Promise<void>((resolve) => {
        const poll = () => (countDeltas() > 0 || published.length > 1 ? resolve() : setImmediate(poll));
        poll();
      });
      await started;
      await new Promise<void>((resolve) => setImmediate(() => ((deltasStoredWhenMacrotaskRan = countDeltas()), resolve())));
      expect((await runner.result(run.id)).status).toBe('completed');
      expect(deltasStoredWhenMacrotaskRan).toBeLessThan(500);
      const stored = ledger.events.readFrom(session.id).map((e) => e.seq);
      expect(published).toEqual(stored);
      await runner.close();
    } finally {
      ledger.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
