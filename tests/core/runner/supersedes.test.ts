/**
 * Retry and edit-and-resend (issue 24): a new run that supersedes a finished one; the old
 * stays in the ledger, the model's context continues from before it. And a failed run
 * keeps its provider error's category, for the UI to explain.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { SessionRunner } from '../../../src-main/core/runner/sessionRunner';
import { LiveRuns } from '../../../src-main/core/engine/liveRuns';
import { LlmError } from '../../../src-main/core/llm/errors';
import type { LanguageModelPort, Part } from '../../../src-main/core/llm/types';
import { fold } from '../../../src-preload/contract/fold';
import { RecordingMockModel, finish, text } from '../../support/mockModel';

/** A model that answers only once the run is stopped, to hold a run open. */
const held: LanguageModelPort = {
  providerId: 'mock',
  model: 'held',
  baseUrl: 'memory://held',
  async *stream(request) {
    await new Promise<void>((resolve) => request.signal?.addEventListener('abort', () => resolve()));
    yield finish('aborted');
  },
};

let dir: string;
let ledger: Ledger;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-supersede-'));
  ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
});
afterEach(() => {
  ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const refused: Part[] = [
  { type: 'error', error: { errorType: 'authentication', code: 'invalid_api_key', message: 'Incorrect API key provided', status: 401, provider: 'mock', retryable: false } },
];

function runner(createModel: () => LanguageModelPort) {
  return new SessionRunner({
    ledger,
    createModel,
    executor: { executeBatch: async () => [] },
    kernel: { executeCell: async () => ({ ok: false, summary: 'no kernels here' }) },
    evidenceFor: () => ({ missing: (ids) => [...ids] }),
    tools: () => [],
    systemPrompt: () => 'system',
    liveRuns: new LiveRuns(),
    publish: () => undefined,
    streamSliceMs: 0,
  });
}

const chunksOf = (sessionId: string) => ledger.events.readFrom(sessionId, 0, 10_000).map((e) => e.chunk);

describe('a failed run', () => {
  it('keeps the provider error category in its metadata and its error chunk', async () => {
    const model = new RecordingMockModel([refused]);
    const r = runner(() => model);
    const session = ledger.createSession('s');
    const run = await r.result(r.submit({ sessionId: session.id, mutationId: 'a', message: 'q' }).id);
    expect(run).toMatchObject({ status: 'failed', failureCode: 'not_configured' });
    const chunks = chunksOf(session.id);
    expect(chunks.find((c) => c.type === 'error')).toMatchObject({ errorCode: 'not_configured', errorType: 'authentication', errorText: 'mock: Incorrect API key provided' });
    const meta = fold(chunks).find((m) => m.role === 'assistant')!.metadata as { run: { providerError: unknown } };
    expect(meta.run.providerError).toEqual({ errorType: 'authentication', code: 'invalid_api_key', status: 401, provider: 'mock' });
  });

  it('without a key names the provider in its start metadata, so the UI can offer its setup', async () => {
    const r = runner(() => {
      throw new LlmError({ errorType: 'authentication', code: 'missing_api_key', message: 'No API key for Volcengine Ark.', status: null, provider: 'ark', retryable: false });
    });
    const session = ledger.createSession('s');
    await r.result(r.submit({ sessionId: session.id, mutationId: 'a', message: 'q' }).id);
    const answer = fold(chunksOf(session.id)).find((m) => m.role === 'assistant')!;
    expect(answer.metadata).toMatchObject({ provider: 'ark', run: { status: 'failed', providerError: { code: 'missing_api_key', provider: 'ark' } } });
  });
});

describe('a run that supersedes another', () => {
  it('continues from before the superseded run; the old run stays in the ledger', async () => {
    const model = new RecordingMockModel([text('first answer'), text('first answer'), refused, text('retried'), text('retried')]);
    const r = runner(() => model);
    const session = ledger.createSession('s');
    await r.result(r.submit({ sessionId: session.id, mutationId: 'm1', message: 'first question' }).id);
    const failed = await r.result(r.submit({ sessionId: session.id, mutationId: 'm2', message: 'second question' }).id);
    expect(failed.status).toBe('failed');
    const retry = await r.result(r.submit({ sessionId: session.id, mutationId: 'm3', message: 'second question', supersedes: failed.id }).id);
    expect(retry.status).toBe('completed');
    // The retry's first request: the first exchange, then the question once (not the failed attempt).
    const request = model.requests[3]!;
    const users = request.messages.filter((m) => m.role === 'user').map((m) => m.content);
    expect(users).toEqual(['first question', 'second question']);
    // Both attempts are in the ledger and the stream; the retry's start metadata names the old run.
    expect(ledger.runs.listBySession(session.id).map((x) => x.status)).toEqual(['completed', 'failed', 'completed']);
    const retryMessage = fold(chunksOf(session.id)).find((m) => m.id === retry.id)!;
    expect(retryMessage.metadata).toMatchObject({ supersedes: failed.id });
  });

  it('refuses a run that has not finished: it is stopped first', async () => {
    const r = runner(() => held);
    const session = ledger.createSession('s');
    const running = r.submit({ sessionId: session.id, mutationId: 'm1', message: 'q' });
    for (let i = 0; i < 500 && ledger.runs.require(running.id).status !== 'processing'; i++) await new Promise((res) => setTimeout(res, 5));
    expect(() => r.submit({ sessionId: session.id, mutationId: 'm2', message: 'q', supersedes: running.id })).toThrow(/has not finished; stop it first/);
    r.stop(session.id);
    await r.result(running.id);
  });

  it('refuses a run of another session, or an unknown one', async () => {
    const model = new RecordingMockModel([text('x'), text('x')]);
    const r = runner(() => model);
    const a = ledger.createSession('a');
    const b = ledger.createSession('b');
    const done = await r.result(r.submit({ sessionId: a.id, mutationId: 'm1', message: 'q' }).id);
    expect(() => r.submit({ sessionId: b.id, mutationId: 'm2', message: 'q', supersedes: done.id })).toThrow(/No run .* in session/);
    expect(() => r.submit({ sessionId: a.id, mutationId: 'm3', message: 'q', supersedes: 'run_missing' })).toThrow(/No run run_missing/);
  });
});

