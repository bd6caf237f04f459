/**
 * The engine sees one tool-call shape whatever the wire: an `ark` (OpenAI-compatible)
 * reply and a recorded Anthropic reply carrying the same call produce identical parts.
 */
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Part } from '../../../src-main/core/llm';
import { startScriptedModel, transcriptStep, type ScriptedModel } from '../../support/scriptedModel';
import { collect, compact, hello, modelAt } from './helpers';

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel();
});
afterAll(() => server.close());

/** The parts without usage/cost/model, which legitimately differ between providers. */
const shape = (parts: Part[]) => compact(parts).map((p) => (p.type === 'finish' ? { type: p.type, reason: p.reason } : p));

it('ark and anthropic produce the same tool-call parts for the same call', async () => {
  const rawArguments = '{"elements": [{"location": "San Francisco", "temperature": 58, "condition": "sunny"}]}';
  server.push(transcriptStep('anthropic-messages-tool-use.chunks.jsonl'));
  const anthropic = shape(await collect(modelAt('anthropic', server.baseUrl).stream(hello)));
  server.push({ reply: [{ toolCall: { id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA', name: 'json', arguments: rawArguments } }], chunkSize: 7 });
  const ark = shape(await collect(modelAt('ark', server.baseUrl).stream(hello)));

  expect(ark).toEqual(anthropic);
  expect(ark.map((p) => p.type)).toEqual(['tool-call-start', 'tool-call-delta', 'tool-call-end', 'finish']);
  expect(ark[2]).toEqual({
    type: 'tool-call-end',
    id: 'toolu_01KFbKqPYSuAKujiL6mTfzYA',
    name: 'json',
    rawArguments,
    arguments: JSON.parse(rawArguments),
    parseError: null,
    complete: true,
  });
});

it('text before a no-argument call has the same shape on both wires', async () => {
  server.push(transcriptStep('anthropic-messages-text-then-tool-noargs.chunks.jsonl'));
  const anthropic = shape(await collect(modelAt('anthropic', server.baseUrl).stream(hello)));
  server.push({
    reply: [{ text: "I'll update the issue list for you." }, { toolCall: { id: 'toolu_01QE1WLsSVp5hy5Q3GmGTmjP', name: 'updateIssueList', arguments: {} } }],
  });
  const ark = shape(await collect(modelAt('ark', server.baseUrl).stream(hello)));
  expect(ark).toEqual(anthropic);
  expect(ark.map((p) => p.type)).toEqual(['text-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'finish']);
});

it('invalid arguments are kept raw with the parse error beside them, never dropped', async () => {
  server.push({
    reply: [
      { toolCall: { id: 'c1', name: 'web_fetch', arguments: '{"url": "https://example.org",}' } },
      { toolCall: { id: 'c2', name: 'save_artifact', arguments: '["not", "an", "object"]' } },
      { toolCall: { id: 'c3', name: 'list_files', arguments: '' } },
    ],
  });
  const ends = (await collect(modelAt('ark', server.baseUrl).stream(hello))).filter((p) => p.type === 'tool-call-end');
  expect(ends.map((p) => [p.id, p.rawArguments, p.arguments, p.complete])).toEqual([
    ['c1', '{"url": "https://example.org",}', undefined, true],
    ['c2', '["not", "an", "object"]', undefined, true],
    ['c3', '', {}, true],
  ]);
  expect(ends[0]!.parseError).toMatch(/^Tool arguments are not valid JSON/);
  expect(ends[1]!.parseError).toBe('Tool arguments must be a JSON object, got an array.');
  expect(ends[2]!.parseError).toBeNull();
});
