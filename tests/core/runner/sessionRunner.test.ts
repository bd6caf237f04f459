import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionStreamEvent } from '../../../src-preload/contract/sessions';
import { fold } from '../../../src-preload/contract/fold';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { SessionRunner } from '../../../src-main/core/runner/sessionRunner';
import { activeRun, conversationReducer, openConversation } from '../../../src-renderer/src/store/conversationReducer';
import type { LanguageModelPort, LlmRequest, Part } from '../../../src-main/core/llm/types';
import { RecordingMockModel, finish, text, toolCall, validAnswer } from '../../support/mockModel';
import { LiveRuns } from '../../../src-main/core/engine/liveRuns';

let dir: string;
let ledger: Ledger;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-runner-'));
  ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
});
afterEach(() => {
  ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** A model whose replies wait for the test to release them, to hold a run open. */
class GatedModel implements LanguageModelPort {
  readonly providerId = 'mock';
  readonly model = 'gated';
  readonly baseUrl = 'memory://gated';
  readonly requests: LlmRequest[] = [];
  private gates: (() => void)[] = [];
  constructor(private readonly reply: (request: LlmRequest) => Part[]) {}
  release(): void {
    this.gates.shift()?.();
  }
  get waiting(): number {
    return this.gates.length;
  }
  async *stream(request: LlmRequest): AsyncIterable<Part> {
    this.requests.push(request);
    await new Promise<void>((resolve) => {
      this.gates.push(resolve);
      request.signal?.addEventListener('abort', () => {
        this.gates = this.gates.filter((g) => g !== resolve);
        resolve();
      });
    });
    if (request.signal?.aborted) {
      yield finish('aborted');
      return;
    }
    yield* this.reply(request);
  }
}

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 5000 && !cond(); i++) await new Promise((r) => setTimeout(r, 2));
  if (!cond()) throw new Error('condition not reached');
};

function runner(model: LanguageModelPort | ((provider?: string) => LanguageModelPort), published: SessionStreamEvent[] = []) {
  return new SessionRunner({
    ledger,
    createModel: (provider) => (typeof model === 'function' ? model(provider) : model),
    executor: { executeBatch: async (calls) => calls.map((c) => ({ toolCallId: c.id, toolName: c.name, isError: true, content: `Unknown tool ${c.name}` })) },
    kernel: { executeCell: async () => ({ ok: false, summary: 'kernels are not wired in this test' }) },
    evidenceFor: () => ({ missing: (ids) => [...ids] }),
    tools: () => [],
    systemPrompt: () => 'system',
    liveRuns: new LiveRuns(),
    publish: (e) => published.push(e),
  });
}

describe('session runner', () => {
  it('runs a submission to completion, storing every chunk before publishing it', async () => {
    const published: SessionStreamEvent[] = [];
    const model = new RecordingMockModel([[...toolCall('f', 'finalize_response', validAnswer), finish()]]);
    const r = runner(model, published);
    const session = ledger.createSession('Insulin');
    const run = r.submit({ sessionId: session.id, mutationId: 'm1', message: 'What is insulin?' });
    const done = await r.result(run.id);
    expect(done).toMatchObject({ status: 'completed', provider: 'mock', model: 'mock-1' });
    const stored = ledger.events.readFrom(session.id);
    // Published events are exactly the stored ones, in seq order (the user turn included).
    expect(published.map((e) => e.seq)).toEqual(stored.map((e) => e.seq).filter((s) => published.some((p) => p.seq === s)));
    expect(published.map((e) => e.chunk)).toEqual(stored.filter((s) => published.some((p) => p.seq === s.seq)).map((s) => s.chunk));
    const history = ledger.history(session.id).messages;
    expect(history.map((m) => m.role)).toEqual(['user', 'assistant']);
    expect(history[1]!.parts.find((p) => p.type === 'data-answer')).toBeTruthy();
    // Stream equals history: the live fold of what was published equals the stored fold.
    expect(fold(stored.map((s) => s.chunk))).toEqual(history);
  });

  it('publishes a chunk only once it is committed, in seq order, and ends the run only after its last chunk is published', async () => {
    const committed = ledger.db.prepare('SELECT 1 FROM stream_events WHERE session_id = ? AND seq = ?').pluck();
    const published: SessionStreamEvent[] = [];
    const notDurableAtPublish: number[] = [];
    // The runner's publish port: checks, at the moment of publication, that the row is in the table.
    const recorder = {
      push(e: SessionStreamEvent) {
        if (!committed.get(e.sessionId, e.seq)) notDurableAtPublish.push(e.seq);
        return published.push(e);
      },
    } as unknown as SessionStreamEvent[];
    const model = new RecordingMockModel([[...'one two three four five'.split(' ').map((t): Part => ({ type: 'text-delta', text: `${t} ` })), ...toolCall('f', 'finalize_response', validAnswer), finish()]]);
    const r = runner(model, recorder);
    const session = ledger.createSession();
    const run = r.submit({ sessionId: session.id, mutationId: 'durable', message: 'count' });
    const done = await r.result(run.id);
    expect(done.status).toBe('completed');
    expect(notDurableAtPublish).toEqual([]);
    // Everything stored for the run was published before its result resolved, in seq order, ending with its finish chunk.
    const stored = ledger.events.readFrom(session.id).map((e) => e.seq);
    expect(published.map((e) => e.seq)).toEqual(stored);
    expect(published[published.length - 1]!.chunk.type).toBe('finish');
  });

  it('a burst of text deltas is stored as fewer, merged chunks; what is published is what is stored, and it folds to the same text', async () => {
    const published: SessionStreamEvent[] = [];
    const words = Array.from({ length: 2_000 }, (_, i) => `w${i} `);
    const model = new RecordingMockModel([[...words.map((t): Part => ({ type: 'text-delta', text: t })), ...toolCall('f', 'finalize_response', validAnswer), finish()]]);
    const r = runner(model, published);
    const session = ledger.createSession();
    const run = r.submit({ sessionId: session.id, mutationId: 'burst', message: 'many words' });
    expect((await r.result(run.id)).status).toBe('completed');
    const stored = ledger.events.readFrom(session.id);
    const deltas = stored.filter((e) => e.chunk.type === 'text-delta');
    // The mock yields every delta without waiting: they reach the ledger faster than it commits.
    expect(deltas.length).toBeLessThan(words.length);
    expect(deltas.map((e) => (e.chunk.type === 'text-delta' ? e.chunk.delta : '')).join('')).toBe(words.join(''));
    expect(published.map((e) => [e.seq, e.chunk])).toEqual(stored.map((e) => [e.seq, e.chunk]));
    const text = fold(stored.map((e) => e.chunk))[1]!.parts.find((p) => p.type === 'text');
    expect(text).toMatchObject({ text: words.join('') });
  });

  it('is idempotent on mutationId: a repeat returns the same run and never runs again', async () => {
    const model = new RecordingMockModel([text('Hi'), text('Hello there.')]);
    const r = runner(model);
    const session = ledger.createSession();
    const a = r.submit({ sessionId: session.id, mutationId: 'same', message: 'hi' });
    await r.result(a.id);
    const b = r.submit({ sessionId: session.id, mutationId: 'same', message: 'hi' });
    expect(b.id).toBe(a.id);
    expect(b.status).toBe('completed');
    expect(model.requests).toHaveLength(2); // one run: a nudge and the answer
  });

  it('queues a message sent during a run (FIFO) and keeps each run in its own message', async () => {
    const model = new GatedModel(() => text('answer'));
    const published: SessionStreamEvent[] = [];
    const r = runner(model, published);
    const session = ledger.createSession();
    const first = r.submit({ sessionId: session.id, mutationId: '1', message: 'first' });
    await until(() => model.waiting === 1);
    const second = r.submit({ sessionId: session.id, mutationId: '2', message: 'second' });
    const third = r.submit({ sessionId: session.id, mutationId: '3', message: 'third' });
    expect(r.state(session.id)).toEqual({ active: first.id, queued: [second.id, third.id] });
    expect(ledger.runs.require(second.id).status).toBe('queued');
    // Published once its group commit is durable (ledger before publish), not synchronously.
    await until(() => published.some((e) => e.chunk.type === 'data-run-status' && (e.chunk as { data: { status: string } }).data.status === 'queued'));
    // Each run: a nudge then the text answer = two model calls.
    for (let i = 0; i < 6; i++) {
      await until(() => model.waiting === 1);
      model.release();
    }
    await r.result(third.id);
    expect([first, second, third].map((run) => ledger.runs.require(run.id).status)).toEqual(['completed', 'completed', 'completed']);
    const roles = ledger.history(session.id).messages.map((m) => `${m.role}:${m.role === 'user' ? (m.parts[0] as { text: string }).text : m.id}`);
    expect(roles).toEqual(['user:first', `assistant:${first.id}`, 'user:second', `assistant:${second.id}`, 'user:third', `assistant:${third.id}`]);
    // The second run's model saw the first exchange.
    const secondRunFirstCall = model.requests[2]!;
    expect(secondRunFirstCall.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user']);
    // As each run stores its user turn, the turns before it are stored folded (the next open reads them): the first two here.
    await until(() => JSON.parse(ledger.folds.read(session.id, Number.MAX_SAFE_INTEGER).messages).length === 4);
    expect(JSON.parse(ledger.folds.read(session.id, Number.MAX_SAFE_INTEGER).messages)).toEqual(JSON.parse(JSON.stringify(ledger.history(session.id).messages.slice(0, 4))));
  });

  it('stop cancels the current run only; the next queued run then starts', async () => {
    const model = new GatedModel(() => text('answer'));
    const r = runner(model);
    const session = ledger.createSession();
    const first = r.submit({ sessionId: session.id, mutationId: '1', message: 'long task' });
    await until(() => model.waiting === 1);
    const second = r.submit({ sessionId: session.id, mutationId: '2', message: 'next' });
    expect(r.stop(session.id)).toEqual({ stopped: first.id });
    expect(await r.result(first.id)).toMatchObject({ status: 'cancelled', failureCode: 'cancelled' });
    await until(() => model.waiting === 1);
    expect(ledger.runs.require(second.id).status).toBe('processing');
    model.release();
    await until(() => model.waiting === 1);
    model.release();
    expect(await r.result(second.id)).toMatchObject({ status: 'completed' });
    expect(r.stop(session.id)).toEqual({ stopped: null });
  });

  it('runs several sessions at once', async () => {
    const model = new GatedModel(() => text('answer'));
    const r = runner(model);
    const a = ledger.createSession('a');
    const b = ledger.createSession('b');
    const ra = r.submit({ sessionId: a.id, mutationId: '1', message: 'a' });
    const rb = r.submit({ sessionId: b.id, mutationId: '1', message: 'b' });
    await until(() => model.waiting === 2);
    expect(ledger.runs.require(ra.id).status).toBe('processing');
    expect(ledger.runs.require(rb.id).status).toBe('processing');
    await r.close();
    expect((await r.result(ra.id)).status).toBe('cancelled');
    expect((await r.result(rb.id)).status).toBe('cancelled');
  });

  it('close cancels a queued run without running it, and its message stays in the history', async () => {
    const model = new GatedModel(() => text('answer'));
    const r = runner(model);
    const session = ledger.createSession();
    const first = r.submit({ sessionId: session.id, mutationId: '1', message: 'long task' });
    await until(() => model.waiting === 1);
    const queued = r.submit({ sessionId: session.id, mutationId: '2', message: 'sent while the first ran' });
    await r.close();
    expect(await r.result(first.id)).toMatchObject({ status: 'cancelled' });
    expect(await r.result(queued.id)).toMatchObject({ status: 'cancelled', failureCode: 'cancelled', failureMessage: expect.stringMatching(/before this queued message ran/) });
    expect(model.requests).toHaveLength(1);
    const messages = ledger.history(session.id).messages;
    expect(messages.filter((m) => m.role === 'user').map((m) => m.parts[0])).toEqual([
      { type: 'text', text: 'long task' },
      { type: 'text', text: 'sent while the first ran' },
    ]);
    expect(messages.at(-1)).toMatchObject({ id: queued.id, role: 'assistant', metadata: { run: { status: 'cancelled' } } });
  });

  it('fails a run at once with not_configured when the provider has no key, naming the variable', async () => {
    const published: SessionStreamEvent[] = [];
    const r = runner(() => {
      throw new Error('No API key for Volcengine Ark (Doubao). Set OPENAI4S_ARK_API_KEY or OPENAI4S_LLM_API_KEY');
    }, published);
    const session = ledger.createSession();
    const run = r.submit({ sessionId: session.id, mutationId: '1', message: 'hi' });
    const done = await r.result(run.id);
    // The renderer, folding what was published, no longer sees the run as running.
    let view = conversationReducer(openConversation(session.id, 1), { type: 'conv/loaded', loadId: 1, events: [], runs: [run] });
    view = conversationReducer(view, { type: 'conv/events', events: published });
    expect(activeRun(view)).toBeNull();
    expect(view.runs[0]).toMatchObject({ status: 'failed', failureCode: 'not_configured' });
    expect(done).toMatchObject({ status: 'failed', failureCode: 'not_configured' });
    expect(done.failureMessage).toMatch(/OPENAI4S_ARK_API_KEY/);
    const last = ledger.history(session.id).messages.at(-1)!;
    expect(last.parts.some((p) => p.type === 'data-error')).toBe(true);
    // The stream itself says the run failed (the renderer reads run status from it).
    expect(last.metadata).toMatchObject({ run: { status: 'failed', failureCode: 'not_configured' } });
    expect((last.metadata as { run: { failureMessage: string } }).run.failureMessage).toMatch(/OPENAI4S_ARK_API_KEY/);
  });

  it('refuses a stale expectedRevision with revision_conflict', async () => {
    const r = runner(new RecordingMockModel([]));
    const session = ledger.createSession();
    expect(() => r.submit({ sessionId: session.id, mutationId: 'x', message: 'hi', expectedRevision: session.revision + 5 })).toThrow(
      expect.objectContaining({ code: 'revision_conflict' }),
    );
  });
});
