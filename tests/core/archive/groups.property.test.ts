import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { segmentHistory } from '../../../src-main/core/archive/groups';
import type { LlmMessage } from '../../../src-main/core/llm/types';
import { archiveFixture, finishPart, policyFor, requestCtx, SummaryModel, validHandoffJson } from './support';

// Issue 19: a compaction never splits an assistant message from its tool results, nor a
// cell from its observation. Random histories of tool batches (1-4 calls), cells (ok or
// error), nudges and user messages, with results from a few bytes to 30 KB, are prepared
// turn by turn under a small window; every prepared request must be a valid conversation
// whose kept turns are an unbroken suffix of the history cut at a group boundary.

type Step =
  | { kind: 'tools'; sizes: number[] }
  | { kind: 'cell'; size: number; ok: boolean }
  | { kind: 'nudge' }
  | { kind: 'user'; size: number };

const size = fc.oneof(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 2_000, max: 30_000 }));
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('tools' as const), sizes: fc.array(size, { minLength: 1, maxLength: 4 }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant('cell' as const), size, ok: fc.boolean() }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'nudge' as const }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('user' as const), size: fc.integer({ min: 1, max: 3_000 }) }) },
);

const text = (n: number, seed: number) => `r${seed} `.concat('abcdefghij klmnop qrstuv wxyz 0123456789\n'.repeat(Math.ceil(n / 40))).slice(0, n);

/** The history a run of steps produces, and the index where each turn ends (a request is prepared there). */
function build(steps: Step[]): { history: LlmMessage[]; ends: number[] } {
  const history: LlmMessage[] = [{ role: 'user', content: 'Summarise the parts.' }];
  const ends: number[] = [];
  steps.forEach((s, i) => {
    if (s.kind === 'tools') {
      const calls = s.sizes.map((_, j) => ({ id: `c${i}-${j}`, name: 'read_text_file', rawArguments: `{"path":"p${i}-${j}"}` }));
      history.push({ role: 'assistant', content: '', toolCalls: calls });
      s.sizes.forEach((n, j) => history.push({ role: 'tool', toolCallId: `c${i}-${j}`, toolName: 'read_text_file', content: text(n, i * 10 + j) }));
    } else if (s.kind === 'cell') {
      history.push({ role: 'assistant', content: `Compute.\n\n\`\`\`python\nprint(${i})\n\`\`\`` });
      history.push({ role: 'user', content: `Cell result${s.ok ? '' : ' (error)'}:\n${text(s.size, i)}` });
    } else if (s.kind === 'nudge') {
      history.push({ role: 'assistant', content: 'Thinking about it.' });
      history.push({ role: 'user', content: 'Your reply had no action.' });
    } else {
      history.push({ role: 'assistant', content: 'Done so far.' });
      history.push({ role: 'user', content: text(s.size, i) });
    }
    ends.push(history.length);
  });
  return { history, ends };
}

/** Every call answered right after its assistant message, every answer after its call, every observation after its cell. */
function assertValidConversation(messages: readonly LlmMessage[]): void {
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i]!;
    if (m.role === 'assistant' && m.toolCalls?.length) {
      const answers = messages.slice(i + 1, i + 1 + m.toolCalls.length);
      expect(answers.map((a) => (a.role === 'tool' ? a.toolCallId : `not a tool result (${a.role})`))).toEqual(m.toolCalls.map((c) => c.id));
    }
    if (m.role === 'tool') {
      let j = i - 1;
      while (j >= 0 && messages[j]!.role === 'tool') j--;
      const owner = messages[j];
      expect(owner?.role === 'assistant' && owner.toolCalls?.some((c) => c.id === m.toolCallId), `tool result ${m.toolCallId} without its call`).toBe(true);
    }
    if (m.role === 'user' && m.content.startsWith('Cell result')) {
      expect(messages[i - 1]?.role, 'a cell observation without its cell').toBe('assistant');
    }
  }
}

/** A message of the request and the history message it stands for have the same place in the conversation. */
const shape = (m: LlmMessage) => (m.role === 'tool' ? `tool:${m.toolCallId}` : m.role === 'assistant' ? `assistant:${(m.toolCalls ?? []).map((c) => c.id).join(',')}:${m.content.slice(0, 40)}` : 'user');

let fx: ReturnType<typeof archiveFixture>;
beforeAll(() => {
  fx = archiveFixture();
});
afterAll(() => fx.close());

describe('compaction over random histories', () => {
  it('never splits a tool group or a cell from its observation, and keeps an unbroken suffix cut at a group boundary', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 40 }), fc.boolean(), fc.integer({ min: 6_000, max: 20_000 }), async (steps, modelWrites, window) => {
        const model = new SummaryModel(() => (modelWrites ? [{ type: 'text-delta', text: validHandoffJson }, finishPart] : [{ type: 'text-delta', text: 'no' }, finishPart]));
        const policy = policyFor(fx, model, window);
        const { history, ends } = build(steps);
        for (const end of ends) {
          const upTo = history.slice(0, end);
          const { messages } = await policy.prepare(upTo, requestCtx(fx));
          assertValidConversation(messages);
          const compacted = messages[0]!.content.startsWith('[Earlier turns summarised');
          // The kept turns: the request minus the handoff (which may have been merged into a kept user message).
          const merged = compacted && messages[0]!.content.includes('\n\n---\n\n');
          const kept = compacted && !merged ? messages.slice(1) : messages;
          const from = upTo.length - kept.length;
          expect(kept.slice(merged ? 1 : 0).map(shape)).toEqual(upTo.slice(from + (merged ? 1 : 0)).map(shape));
          if (compacted) expect(segmentHistory(upTo).some((g) => g.start === from), `cut at ${from} is inside a group`).toBe(true);
          else expect(from).toBe(0);
          // The newest turn is never summarised, and kept whole unless it alone is too big for
          // the window (then its results are archived with previews): the model reads what it just asked for.
          const newest = segmentHistory(upTo).at(-1)!;
          const newestBytes = upTo.slice(newest.start).reduce((n, m) => n + Buffer.byteLength(m.content), 0);
          const got = messages.slice(messages.length - (newest.end - newest.start));
          got.forEach((m, k) => {
            const original = upTo[newest.start + k]!;
            if (m.content !== original.content) {
              expect(newestBytes, `a newest turn that fits was archived: ${JSON.stringify(messages.map((x) => x.content.slice(0, 50)))}`).toBeGreaterThan(window);
              expect(m.content).toContain('[Archived result');
            }
          });
        }
      }),
      { numRuns: 60 },
    );
  }, 120_000);
});
