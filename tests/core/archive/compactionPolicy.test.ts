import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { compactionDataSchema } from '../../../src-preload/contract/compaction';
import { budgetContextPolicy } from '../../../src-main/core/engine/contextPolicy';
import type { LlmMessage } from '../../../src-main/core/llm/types';
import { archiveFixture, ESTIMATE, finishPart, policyFor, requestCtx, SummaryModel, validHandoffJson } from './support';
import { messageTokens } from '../../../src-main/core/archive/tokens';

let fx: ReturnType<typeof archiveFixture>;
afterEach(() => fx?.close());

/** A history of `turns` tool turns, each reading a `bytes`-byte result. */
function toolHistory(turns: number, bytes: number): LlmMessage[] {
  const h: LlmMessage[] = [{ role: 'user', content: 'Summarise the parts.' }];
  for (let i = 0; i < turns; i++) {
    const id = `call-${i}`;
    h.push({ role: 'assistant', content: '', toolCalls: [{ id, name: 'read_text_file', rawArguments: JSON.stringify({ path: `part-${i}.txt` }) }] });
    const line = `part ${i} line: the quick brown fox ${i} jumps over the lazy dog.\n`;
    h.push({ role: 'tool', toolCallId: id, toolName: 'read_text_file', content: line.repeat(Math.ceil(bytes / line.length)).slice(0, bytes) });
  }
  return h;
}

const tokens = (messages: readonly LlmMessage[], system: string) => ESTIMATE.count(system) + messages.reduce((n, m) => n + messageTokens(ESTIMATE, m), 0);

describe('the compaction policy', () => {
  it('archives a large older result by sha256 with a preview the model can recall, and keeps the newest whole', async () => {
    fx = archiveFixture();
    let offered = 0;
    const policy = policyFor(fx, new SummaryModel(() => [finishPart]), 200_000, { onArchived: () => offered++ });
    const history = toolHistory(3, 20_000);
    const out = await policy.prepare(history, requestCtx(fx));
    // The two older results are previews naming their hash; the newest result is whole.
    const previews = out.messages.filter((m) => m.content.startsWith('[Archived result'));
    expect(previews).toHaveLength(2);
    expect(out.messages[out.messages.length - 1]!.content).toBe(history[history.length - 1]!.content);
    const sha = /sha256 ([0-9a-f]{64})/.exec(previews[0]!.content)![1]!;
    expect(sha).toBe(createHash('sha256').update(history[2]!.content).digest('hex'));
    expect(previews[0]!.content).toContain('recall');
    expect(previews[0]!.content.length).toBeLessThan(2_000);
    // The bytes are in the archive, for this session only; recall is offered once.
    expect(fx.ledger.archive.findResult(fx.sessionId, sha)).toMatchObject({ source: 'read_text_file', bytes: 20_000 });
    expect(offered).toBe(1);
    // The old policy only elided text, with no way back.
    const old = budgetContextPolicy({ maxChars: 30_000, keepRecent: 1 }).prepare(history);
    expect(old.some((m) => m.content.includes('sha256'))).toBe(false);
  });

  it('compacts older turns into the model handoff when the request passes the trigger, with the ledger kernel line, and records it', async () => {
    fx = archiveFixture();
    const gen = fx.ledger.kernels.start(fx.sessionId, 'python', 4242);
    const model = new SummaryModel(() => [{ type: 'text-delta', text: `Here it is:\n${validHandoffJson}` }, finishPart]);
    const policy = policyFor(fx, model, 8_000);
    const emitted: StreamChunk[] = [];
    const history = toolHistory(40, 3_000);
    const out = await policy.prepare(history, requestCtx(fx, emitted, 40));
    expect(model.requests).toHaveLength(1);
    expect(tokens(out.messages, out.system!)).toBeLessThan(8_000 * 0.75);
    // The summary call's tokens are handed to the engine, which adds them to the run's usage.
    expect(out.usage?.promptTokens).toBe(1);
    const head = out.messages[0]!;
    expect(head.role).toBe('user');
    expect(head.content).toContain('Earlier turns summarised');
    expect(head.content).toContain('Next move: Read the next part.');
    // The kernel line comes from the ledger, never from the model's text.
    expect(head.content).toContain(`python generation ${gen.generation} (id ${gen.id})`);
    expect(head.content).not.toContain('generation 99');
    const rows = fx.ledger.archive.compactionsBySession(fx.sessionId);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ source: 'model', runId: fx.runId, fallbackReason: null });
    const chunk = emitted.find((c) => c.type === 'data-compaction') as { data: unknown } | undefined;
    expect(compactionDataSchema.parse(chunk!.data).handoff.activeKernelGeneration).toContain(gen.id);
  });

  it('falls back to the ledger-built handoff when the summary call fails or is invalid', async () => {
    for (const reply of [
      () => [{ type: 'error' as const, error: { errorType: 'llm' as const, code: 'x', message: 'overloaded', status: 529, provider: 'mock', retryable: false } }],
      () => [{ type: 'text-delta' as const, text: '{"objective": "only this"}' }, finishPart],
      () => [{ type: 'text-delta' as const, text: 'I cannot do that.' }, finishPart],
    ]) {
      fx?.close();
      fx = archiveFixture();
      const policy = policyFor(fx, new SummaryModel(reply), 8_000);
      const emitted: StreamChunk[] = [];
      const out = await policy.prepare(toolHistory(40, 3_000), requestCtx(fx, emitted, 40));
      expect(out.messages[0]!.content).toContain('Earlier turns summarised');
      expect(out.messages[0]!.content).toContain('Summarise the parts.');
      const data = compactionDataSchema.parse((emitted.find((c) => c.type === 'data-compaction') as { data: unknown }).data);
      expect(data.source).toBe('fallback');
      expect(data.fallbackReason).toBeTruthy();
      expect(data.handoff.activeKernelGeneration).toBe('none started in this session');
      expect(fx.ledger.archive.compactionsBySession(fx.sessionId)[0]!.fallbackReason).toBe(data.fallbackReason);
    }
  });

  it('adds standing context to the system prompt every turn and never into the history', async () => {
    fx = archiveFixture();
    let turn = 0;
    const policy = new (await import('../../../src-main/core/archive/compactionPolicy')).CompactionPolicy({
      sessionId: fx.sessionId,
      runId: fx.runId,
      model: new SummaryModel(() => [{ type: 'text-delta', text: validHandoffJson }, finishPart]),
      window: { tokens: 8_000, source: 'env' },
      counter: ESTIMATE,
      archive: fx.archive,
      ledger: fx.ledger,
      request: 'Summarise the parts.',
      standing: () => [{ title: 'Memory', text: `remembered fact number ${++turn}` }],
    });
    const first = await policy.prepare(toolHistory(2, 100), requestCtx(fx));
    const later = await policy.prepare(toolHistory(40, 3_000), requestCtx(fx));
    expect(first.system).toContain('remembered fact number 1');
    expect(later.system).toContain('remembered fact number 2');
    expect(later.system!.startsWith('You are a test agent.')).toBe(true);
    expect(later.messages.some((m) => m.content.includes('remembered fact'))).toBe(false);
  });
});

describe('the compaction policy when the run is stopped', () => {
  it('records nothing when the user stops the run during the summary call', async () => {
    fx = archiveFixture();
    const controller = new AbortController();
    const model = new SummaryModel(() => {
      controller.abort();
      return [{ ...finishPart, reason: 'aborted' as const }];
    });
    const policy = policyFor(fx, model, 8_000);
    const emitted: StreamChunk[] = [];
    const request = requestCtx(fx, emitted, 40);
    await policy.prepare(toolHistory(40, 3_000), { ...request, ctx: { ...request.ctx, signal: controller.signal } });
    expect(model.requests).toHaveLength(1);
    expect(fx.ledger.archive.compactionsBySession(fx.sessionId)).toEqual([]);
    expect(emitted.some((c) => c.type === 'data-compaction')).toBe(false);
    expect(policy.currentHandoff).toBeNull();
  });
});
