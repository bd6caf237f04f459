import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { CompactionPolicy, type CompactionOptions } from '../../../src-main/core/archive/compactionPolicy';
import { ResultArchive } from '../../../src-main/core/archive/resultArchive';
import { estimateTokens, type TokenCounter } from '../../../src-main/core/archive/tokens';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import type { LanguageModelPort, LlmRequest, Part } from '../../../src-main/core/llm/types';

export const ESTIMATE: TokenCounter = { method: 'estimate', count: estimateTokens };

/** A temp data root with a ledger, one session and one run (compaction rows name both). */
export function archiveFixture() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-archive-'));
  const ledger: Ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
  const session = ledger.createSession('long');
  const run = ledger.runs.submit(session.id, 'm1', 'Summarise the parts.').run;
  const archive = new ResultArchive(path.join(dir, 'tool-results'), () => ledger.archive);
  return {
    dir,
    ledger,
    sessionId: session.id,
    runId: run.id,
    archive,
    close() {
      ledger.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A model that answers summary calls with `reply(request)` (a handoff JSON, garbage, or an error part). */
export class SummaryModel implements LanguageModelPort {
  readonly providerId = 'mock';
  readonly model = 'mock-1';
  readonly baseUrl = 'memory://mock';
  readonly requests: LlmRequest[] = [];
  constructor(private readonly reply: (request: LlmRequest) => Part[]) {}
  async *stream(request: LlmRequest): AsyncIterable<Part> {
    this.requests.push(request);
    for (const p of this.reply(request)) yield p;
  }
}

export const finishPart: Part = { type: 'finish', reason: 'stop', rawReason: null, usage: { promptTokens: 1, completionTokens: 1, reasoningTokens: null, cachedTokens: null }, cost: null, model: 'mock-1' };

export const validHandoffJson = JSON.stringify({
  Objective: 'Summarise the parts.',
  Constraints: ['Stay in the workspace.'],
  Decisions: ['Read the parts in order.'],
  Done: ['Read several parts.'],
  'In progress': ['Reading the rest.'],
  Blocked: [],
  'Next Move': 'Read the next part.',
  'Key Artifacts': [],
  'Active Kernel Generation': 'the model says generation 99',
});

export function policyFor(
  fx: ReturnType<typeof archiveFixture>,
  model: LanguageModelPort,
  windowTokens: number,
  extra: { options?: Partial<CompactionOptions>; onArchived?: () => void } = {},
) {
  return new CompactionPolicy({
    sessionId: fx.sessionId,
    runId: fx.runId,
    model,
    window: { tokens: windowTokens, source: 'env' },
    counter: ESTIMATE,
    archive: fx.archive,
    ledger: fx.ledger,
    request: 'Summarise the parts.',
    ...(extra.options ? { options: extra.options } : {}),
    ...(extra.onArchived ? { onArchived: extra.onArchived } : {}),
  });
}

/** The request context the engine passes to prepare. */
export function requestCtx(fx: { sessionId: string; runId: string }, emitted: StreamChunk[] = [], turn = 1) {
  return { system: 'You are a test agent.', tools: [], ctx: { sessionId: fx.sessionId, runId: fx.runId, turn, signal: new AbortController().signal, emit: (c: StreamChunk) => emitted.push(c) } };
}
