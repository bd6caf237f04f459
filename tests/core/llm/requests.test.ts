/**
 * What goes on the wire: the scripted model records each request, so these tests
 * check the body each provider package builds from our request (system, history
 * with tool calls and results, tools as JSON Schema, usage and reasoning opt-ins),
 * and that reasoning reaches the parts whichever way the provider sends it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LlmRequest } from '../../../src-main/core/llm';
import { readTranscript, startScriptedModel, transcriptStep, type ScriptedModel } from '../../support/scriptedModel';
import { collect, compact, modelAt, reasoningOf, textOf, hello } from './helpers';

let server: ScriptedModel;
beforeAll(async () => {
  server = await startScriptedModel();
});
afterAll(() => server.close());

const searchTool = {
  name: 'science_search',
  description: 'Search a science database.',
  inputSchema: { type: 'object', properties: { database: { type: 'string' }, query: { type: 'string' } }, required: ['database', 'query'] },
};

const turn: LlmRequest = {
  system: 'You are a careful research assistant.',
  temperature: 0.2,
  tools: [searchTool],
  messages: [
    { role: 'user', content: 'Find human insulin.' },
    { role: 'assistant', content: 'Searching.', toolCalls: [{ id: 'call_9', name: 'science_search', rawArguments: '{"database":"uniprot","query":"INS human"}' }] },
    { role: 'tool', toolCallId: 'call_9', toolName: 'science_search', content: '{"accession":"P01308"}' },
  ],
};

const lastBody = () => server.requests.at(-1)!.body as Record<string, unknown>;

describe('request bodies', () => {
  it('OpenAI-compatible: chat/completions with system, tool history, tools, streamed usage', async () => {
    server.push({ reply: [{ text: 'P01308.' }] });
    const m = modelAt('ark', server.baseUrl, { model: 'doubao-seed-1-6-250615' });
    await collect(m.stream(turn));
    const req = server.requests.at(-1)!;
    expect(req.path).toBe('/v1/chat/completions');
    expect(req.headers.authorization).toBe('Bearer test-key-123');
    expect(lastBody()).toMatchObject({
      model: 'doubao-seed-1-6-250615',
      stream: true,
      stream_options: { include_usage: true },
      temperature: 0.2,
      messages: [
        { role: 'system', content: 'You are a careful research assistant.' },
        { role: 'user', content: 'Find human insulin.' },
        {
          role: 'assistant',
          content: 'Searching.',
          tool_calls: [{ id: 'call_9', type: 'function', function: { name: 'science_search', arguments: '{"database":"uniprot","query":"INS human"}' } }],
        },
        { role: 'tool', tool_call_id: 'call_9', content: '{"accession":"P01308"}' },
      ],
      tools: [{ type: 'function', function: { name: 'science_search', description: 'Search a science database.', parameters: searchTool.inputSchema } }],
    });
  });

  it('Anthropic: /messages with system, tool_use and tool_result blocks, thinking when asked', async () => {
    server.push(transcriptStep('anthropic-messages-thinking-text.raw.sse'));
    await collect(modelAt('anthropic', server.baseUrl).stream({ ...turn, temperature: undefined, reasoningBudgetTokens: 2048 }));
    const req = server.requests.at(-1)!;
    expect(req.path).toBe('/v1/messages');
    expect(req.headers['x-api-key']).toBe('test-key-123');
    expect(lastBody()).toMatchObject({
      model: 'claude-sonnet-4-5',
      stream: true,
      system: [{ type: 'text', text: 'You are a careful research assistant.' }],
      thinking: { type: 'enabled', budget_tokens: 2048 },
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Find human insulin.' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Searching.' },
            { type: 'tool_use', id: 'call_9', name: 'science_search', input: { database: 'uniprot', query: 'INS human' } },
          ],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'call_9', content: '{"accession":"P01308"}' }] },
      ],
      tools: [{ name: 'science_search', description: 'Search a science database.', input_schema: searchTool.inputSchema }],
    });
  });

  it('Gemini: streamGenerateContent with systemInstruction, function call/response, thoughts requested', async () => {
    server.push(transcriptStep('gemini-stream-thinking.chunks.jsonl'));
    await collect(modelAt('gemini', server.baseUrl).stream(turn));
    const req = server.requests.at(-1)!;
    expect(req.path).toBe('/v1/models/gemini-2.5-flash:streamGenerateContent?alt=sse');
    expect(req.headers['x-goog-api-key']).toBe('test-key-123');
    const body = lastBody();
    expect(body).toMatchObject({
      systemInstruction: { parts: [{ text: 'You are a careful research assistant.' }] },
      generationConfig: { temperature: 0.2, thinkingConfig: { includeThoughts: true } },
      tools: [{ functionDeclarations: [{ name: 'science_search', description: 'Search a science database.' }] }],
    });
    expect(body.contents).toMatchObject([
      { role: 'user', parts: [{ text: 'Find human insulin.' }] },
      { role: 'model', parts: [{ text: 'Searching.' }, { functionCall: { name: 'science_search', args: { database: 'uniprot', query: 'INS human' } } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'science_search', response: { content: '{"accession":"P01308"}' } } }] },
    ]);
  });
});

describe('reasoning, every way it arrives', () => {
  it('<think> in streamed content, split across 3-character deltas', async () => {
    server.push({ reply: [{ think: 'The user wants INS; UniProt has it.' }, { text: '\nInsulin is P01308.' }], chunkSize: 3 });
    const parts = compact(await collect(modelAt('ollama', server.baseUrl).stream(hello)));
    expect(parts.map((p) => p.type)).toEqual(['reasoning-delta', 'text-delta', 'finish']);
    expect(reasoningOf(parts)).toBe('The user wants INS; UniProt has it.');
    expect(textOf(parts)).toBe('Insulin is P01308.');
  });

  it('reasoning_content deltas from the scripted server', async () => {
    server.push({ reply: [{ reasoning: '先查 UniProt。' }, { text: '胰岛素：P01308' }], chunkSize: 2 });
    const parts = compact(await collect(modelAt('deepseek', server.baseUrl).stream(hello)));
    expect(parts.map((p) => p.type)).toEqual(['reasoning-delta', 'text-delta', 'finish']);
    expect([reasoningOf(parts), textOf(parts)]).toEqual(['先查 UniProt。', '胰岛素：P01308']);
  });

  it('Gemini thought parts become reasoning (recorded stream with a thought part added)', async () => {
    // Derived from gemini-stream-thinking.chunks.jsonl: its first text part marked as a thought, the
    // way Gemini sends thoughts when includeThoughts is on. No recorded stream with thought text was found.
    const sse = readTranscript('gemini-stream-thinking.chunks.jsonl');
    const first = sse.indexOf('"text":');
    expect(first).toBeGreaterThan(0);
    const withThought = `${sse.slice(0, first)}"text":"Count the r letters.","thought":true},{${sse.slice(first)}`;
    server.push({ raw: withThought });
    const parts = compact(await collect(modelAt('gemini', server.baseUrl).stream(hello)));
    expect(reasoningOf(parts)).toBe('Count the r letters.');
    expect(textOf(parts)).toMatch(/^There are \*\*3\*\* "r"s in strawberry\./);
  });
});

describe('scripted model', () => {
  it('records requests, answers an exhausted script with a clear 500, and reports usage it was given', async () => {
    server.push({ reply: [{ text: 'x' }], usage: { prompt_tokens: 1000, completion_tokens: 200, prompt_tokens_details: { cached_tokens: 400 } }, model: 'doubao-seed-1-6-250615' });
    const parts = await collect(modelAt('ark', server.baseUrl, { baseUrl: `${server.baseUrl}/` }).stream(hello));
    expect(parts.at(-1)).toMatchObject({
      type: 'finish',
      model: 'doubao-seed-1-6-250615',
      usage: { promptTokens: 1000, completionTokens: 200, cachedTokens: 400 },
      cost: { currency: 'CNY', priceId: 'ark:doubao-seed-1-6', amount: (600 * 0.8 + 400 * 0.16 + 200 * 8) / 1e6 },
    });
    expect(server.remaining()).toBe(0);
    const exhausted = await collect(modelAt('ark', server.baseUrl, { retry: { maxRetries: 0 } }).stream(hello));
    expect(exhausted.at(-1)).toMatchObject({ type: 'error', error: { code: 'script_exhausted', status: 500 } });
  });
});
