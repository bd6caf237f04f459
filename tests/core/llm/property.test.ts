/**
 * Property: whatever a model sends (any mix of reasoning and text, then tool calls,
 * cut into deltas of any size), the parts over the real OpenAI-compatible wire say
 * exactly that: same text, same reasoning, same order, every tool call with its raw
 * argument text, the parsed value beside it, and deltas that add up to the raw text.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Part } from '../../../src-main/core/llm';
import { startScriptedModel, type ReplyItem, type ScriptedModel } from '../../support/scriptedModel';
import { collect, compact, hello, modelAt } from './helpers';

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel();
});
afterAll(() => server.close());

const chars = fc.constantFrom('a', 'b', ' ', '\n', '<', '>', '"', '\\', '思', '考', '😀');
const str = fc.array(chars, { minLength: 1, maxLength: 30 }).map((a) => a.join(''));
const prose = fc.oneof(str.map((text): ReplyItem => ({ text })), str.map((reasoning): ReplyItem => ({ reasoning })));
const args = fc.dictionary(fc.constantFrom('query', 'database', 'limit', 'ids', '名'), fc.oneof(str, fc.integer(), fc.array(fc.integer(), { maxLength: 3 }), fc.constant(null)), { maxKeys: 4 });
const call = fc.record({ name: fc.constantFrom('science_search', 'web_fetch', 'save_artifact'), arguments: args });

it('normalized parts reproduce the scripted reply exactly', async () => {
  await fc.assert(
    fc.asyncProperty(fc.array(prose, { maxLength: 6 }), fc.array(call, { maxLength: 3 }), fc.integer({ min: 1, max: 12 }), async (items, calls, chunkSize) => {
      const reply: ReplyItem[] = [...items, ...calls.map((c, i) => ({ toolCall: { ...c, id: `call_${i}` } }))];
      server.push({ reply, chunkSize });
      const raw = await collect(modelAt('ark', server.baseUrl).stream(hello));
      const parts = compact(raw);

      const expected: { type: string; text: string }[] = [];
      for (const item of items) {
        const [type, text] = 'text' in item ? ['text-delta', item.text] : ['reasoning-delta', (item as { reasoning: string }).reasoning];
        const prev = expected[expected.length - 1];
        if (prev?.type === type) prev.text += text;
        else expected.push({ type, text });
      }
      const prosePart = (p: Part) => p.type === 'text-delta' || p.type === 'reasoning-delta';
      expect(parts.filter(prosePart)).toEqual(expected);

      const ends = raw.filter((p) => p.type === 'tool-call-end');
      expect(ends.map((p) => [p.id, p.name, p.rawArguments, p.arguments, p.parseError, p.complete])).toEqual(
        calls.map((c, i) => [`call_${i}`, c.name, JSON.stringify(c.arguments), c.arguments, null, true]),
      );
      for (const end of ends) {
        const deltas = raw.flatMap((p) => (p.type === 'tool-call-delta' && p.id === end.id ? [p.delta] : []));
        expect(deltas.join('')).toBe(end.rawArguments);
      }
      expect(raw.at(-1)).toMatchObject({ type: 'finish', reason: calls.length > 0 ? 'tool-calls' : 'stop' });
    }),
    { numRuns: 60 },
  );
});
