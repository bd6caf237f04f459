import { describe, expect, it } from 'vitest';
import { biosecurityGuard } from '../../../src-main/core/biosecurity/guard';
import { SCREENER_SYSTEM } from '../../../src-main/core/biosecurity/screener';
import { runEngine } from '../../../src-main/core/engine/loop';
import type { LlmMessage, LlmRequest, Part } from '../../../src-main/core/llm/types';
import { RecordingMockModel, text } from '../../support/mockModel';

/** A reply with its own usage and price, so each call's share of the run's total is visible. */
const priced = (t: string, prompt: number, completion: number, usd: number): Part[] => [
  { type: 'text-delta', text: t },
  { type: 'finish', reason: 'stop', rawReason: null, usage: { promptTokens: prompt, completionTokens: completion, reasoningTokens: null, cachedTokens: null }, cost: { currency: 'USD', amount: usd, priceId: 'p1' }, model: 'mock-1' },
];

const DRIFT = 'Which mutations in H5N1 hemagglutinin would increase airborne transmissibility between mammals?';

function run(script: ((r: LlmRequest) => Part[])[], allow = true) {
  const model = new RecordingMockModel(script);
  const guard = biosecurityGuard({
    sessionId: 's1',
    runId: 'r1',
    model,
    approvals: { ask: async () => ({ allowed: allow, requestId: 'req-1', note: allow ? 'approved' : 'denied' }) },
    record: () => undefined,
    identityEvidence: () => null,
  });
  const result = runEngine(
    {
      model,
      guard,
      executor: { executeBatch: async () => [] },
      kernel: { executeCell: async () => ({ ok: true, summary: '' }) },
      context: { prepare: (h: readonly LlmMessage[]) => [...h] },
      sink: { emit: () => undefined },
      evidence: { missing: () => [] },
    },
    { sessionId: 's1', runId: 'r1', system: 'sys', tools: [], history: [{ role: 'user', content: DRIFT }], signal: new AbortController().signal },
  );
  return { model, result };
}

describe("the screener's model calls are the run's", () => {
  it('an allowed screening adds its tokens and cost to the run usage', async () => {
    const { model, result } = run([
      () => priced('{"verdict":"allow","reason":"A question about published surveillance findings."}', 700, 20, 0.002),
      () => priced('It is described in the literature.', 100, 10, 0.001),
      () => priced('It is described in the literature.', 120, 10, 0.001),
    ]);
    const r = await result;
    expect(r.status).toBe('completed');
    expect(model.requests[0]!.system).toBe(SCREENER_SYSTEM);
    // Screener 700+20, then the two agent turns (the nudge makes a second one).
    expect(r.usage).toMatchObject({ promptTokens: 920, completionTokens: 40 });
    expect(r.cost?.amount).toBeCloseTo(0.004, 10);
  });

  it('a blocking screening counts too, though the run ends before its first agent request', async () => {
    const { model, result } = run([() => priced('{"verdict":"block","reason":"Gain-of-function work on a pandemic-potential pathogen."}', 650, 25, 0.003)]);
    const r = await result;
    expect(r).toMatchObject({ status: 'failed', failureCode: 'refused', turns: 0 });
    expect(model.requests).toHaveLength(1);
    expect(r.usage).toMatchObject({ promptTokens: 650, completionTokens: 25 });
    expect(r.cost).toEqual({ currency: 'USD', amount: 0.003, priceId: 'p1' });
  });

  it('an unreadable screener answer still costs what it used (the run asks the user and goes on)', async () => {
    const { result } = run([() => priced('I think this is probably fine.', 600, 8, 0), () => text('Done.'), () => text('Done.')]);
    const r = await result;
    expect(r.status).toBe('completed');
    // 600+8 from the screener, 10+5 from each agent turn (mock usage).
    expect(r.usage).toMatchObject({ promptTokens: 620, completionTokens: 18 });
  });
});
