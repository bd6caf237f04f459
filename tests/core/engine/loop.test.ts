import { describe, expect, it } from 'vitest';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { NUDGE, runEngine } from '../../../src-main/core/engine/loop';
import type { CellOutcome, EnginePorts, ToolResult } from '../../../src-main/core/engine/ports';
import type { ToolCallRecord } from '../../../src-main/core/engine/routeAction';
import type { LlmMessage, LlmTool } from '../../../src-main/core/llm/types';
import { RecordingMockModel, finish, text, toolCall, validAnswer, type ScriptedReply } from '../../support/mockModel';

interface Harness {
  model: RecordingMockModel;
  chunks: StreamChunk[];
  batches: ToolCallRecord[][];
  cells: { language: string; code: string }[];
  controller: AbortController;
  run(): ReturnType<typeof runEngine>;
}

function harness(
  script: ScriptedReply[],
  opts: {
    executor?: (calls: ToolCallRecord[]) => Promise<ToolResult[]>;
    cell?: (code: string) => Promise<CellOutcome>;
    evidence?: string[];
    maxTurns?: number;
    tools?: () => LlmTool[];
  } = {},
): Harness {
  const model = new RecordingMockModel(script);
  const chunks: StreamChunk[] = [];
  const batches: ToolCallRecord[][] = [];
  const cells: { language: string; code: string }[] = [];
  const controller = new AbortController();
  const ports: EnginePorts = {
    model,
    executor: {
      async executeBatch(calls) {
        batches.push(calls);
        if (opts.executor) return opts.executor(calls);
        return calls.map((c) => ({ toolCallId: c.id, toolName: c.name, content: `ran ${c.name}`, isError: false }));
      },
    },
    kernel: {
      async executeCell(language, code) {
        cells.push({ language, code });
        return opts.cell ? opts.cell(code) : { ok: true, summary: 'stdout: 42' };
      },
    },
    context: { prepare: (h: readonly LlmMessage[]) => [...h] },
    sink: { emit: (c) => chunks.push(c) },
    evidence: { missing: (ids) => ids.filter((id) => !(opts.evidence ?? []).includes(id)) },
  };
  const history: LlmMessage[] = [{ role: 'user', content: 'What is insulin?' }];
  return {
    model,
    chunks,
    batches,
    cells,
    controller,
    run: () =>
      runEngine(ports, {
        sessionId: 's1',
        runId: 'r1',
        system: 'sys',
        tools: [],
        history,
        signal: controller.signal,
        ...(opts.maxTurns ? { maxTurns: opts.maxTurns } : {}),
        ...(opts.tools ? { tools: opts.tools } : {}),
      }),
  };
}

const types = (chunks: StreamChunk[]) => chunks.map((c) => c.type);

describe('engine loop', () => {
  it('completes on a sole valid finalize_response and emits the answer', async () => {
    const h = harness([[...toolCall('c1', 'finalize_response', validAnswer), finish('tool-calls')]]);
    const result = await h.run();
    expect(result).toMatchObject({ status: 'completed', failureCode: null, turns: 1 });
    expect(result.answer).toMatchObject({ summary: validAnswer.summary, cited: true });
    expect(types(h.chunks)).toEqual([
      'start', 'start-step', 'tool-input-start', 'data-thinking-step', 'tool-input-delta', 'tool-input-available',
      'data-thinking-step', 'tool-output-available', 'data-answer', 'finish-step', 'message-metadata', 'finish',
    ]);
    expect(h.chunks.at(-2)).toMatchObject({ type: 'message-metadata', messageMetadata: { run: { status: 'completed', turns: 1 } } });
    expect(h.batches).toEqual([]);
  });

  it('offers finalize_response itself, last, on every request (the capabilities do not list it)', async () => {
    const h = harness([text('thinking'), [...toolCall('c1', 'finalize_response', validAnswer), finish('tool-calls')]]);
    await h.run();
    expect(h.model.requests).toHaveLength(2);
    for (const request of h.model.requests) expect(request.tools?.map((t) => t.name)).toEqual(['finalize_response']);
  });

  it('asks for the tools before each request, so a tool found mid-run is offered from the next one', async () => {
    const offered: LlmTool[] = [];
    const h = harness([[...toolCall('c1', 'find_tools', { query: 'x' }), finish('tool-calls')], [...toolCall('c2', 'finalize_response', validAnswer), finish()]], {
      tools: () => offered,
      executor: async (calls) => {
        offered.push({ name: 'found_tool', description: 'found', inputSchema: { type: 'object' } });
        return calls.map((c) => ({ toolCallId: c.id, toolName: c.name, content: 'found', isError: false }));
      },
    });
    await h.run();
    expect(h.model.requests.map((r) => r.tools?.map((t) => t.name))).toEqual([['finalize_response'], ['found_tool', 'finalize_response']]);
  });

  it('lets tools win over code in the same reply', async () => {
    const h = harness([
      [{ type: 'text-delta', text: '```python\nprint(1)\n```' }, ...toolCall('c1', 'science_search', { q: 'INS' }), finish('tool-calls')],
      [...toolCall('c2', 'finalize_response', validAnswer), finish()],
    ]);
    const result = await h.run();
    expect(result.status).toBe('completed');
    expect(h.batches.map((b) => b.map((c) => c.name))).toEqual([['science_search']]);
    expect(h.cells).toEqual([]);
    // The model saw the tool result on its second call.
    expect(h.model.requests[1]!.messages.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'c1', content: 'ran science_search' });
  });

  it('runs only the first of two cells and reports its output to the model', async () => {
    const h = harness([
      text('```python\nx = 6*7\nprint(x)\n```\n```python\nprint("second")\n```'),
      [...toolCall('f', 'finalize_response', validAnswer), finish()],
    ]);
    await h.run();
    expect(h.cells).toEqual([{ language: 'python', code: 'x = 6*7\nprint(x)' }]);
    expect(h.model.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: 'Cell result:\nstdout: 42' });
  });

  it('never executes an unclosed fence: it nudges instead', async () => {
    const h = harness([text('```python\nprint(1)\n'), [...toolCall('f', 'finalize_response', validAnswer), finish()]]);
    const result = await h.run();
    expect(h.cells).toEqual([]);
    expect(h.model.requests[1]!.messages.at(-1)).toEqual({ role: 'user', content: NUDGE });
    expect(result.status).toBe('completed');
  });

  it('completes with an uncited, generated answer after text-only twice', async () => {
    const h = harness([text('Hello! How can I help?'), text('Insulin is a hormone.')]);
    const result = await h.run();
    expect(result.status).toBe('completed');
    expect(result.answer).toMatchObject({ cited: false, summary: 'Insulin is a hormone.' });
    expect(result.answer!.claims.every((c) => c.basis === 'generated')).toBe(true);
    expect(h.model.requests).toHaveLength(2);
    expect(types(h.chunks).filter((t) => t === 'data-answer')).toHaveLength(1);
  });

  it('returns finalize validation errors to the model and accepts the retry', async () => {
    const invalid = { ...validAnswer, limitations: [], suggested_questions: ['1', '2', '3', '4', '5', '6'] };
    const h = harness([
      [...toolCall('f1', 'finalize_response', invalid), finish()],
      [...toolCall('f2', 'finalize_response', validAnswer), finish()],
    ]);
    const result = await h.run();
    expect(result.status).toBe('completed');
    const toolMsg = h.model.requests[1]!.messages.at(-1) as Extract<LlmMessage, { role: 'tool' }>;
    expect(toolMsg).toMatchObject({ role: 'tool', toolCallId: 'f1', isError: true });
    expect(toolMsg.content).toMatch(/limitations: give at least one limitation/);
    expect(toolMsg.content).toMatch(/suggested_questions: at most five/);
    expect(h.chunks).toContainEqual(expect.objectContaining({ type: 'tool-output-error', toolCallId: 'f1' }));
  });

  it('refuses an observed claim whose evidence does not exist, naming the id', async () => {
    const observed = { ...validAnswer, claims: [{ statement: 'INS is P01308', basis: 'observed', evidence: ['ev_missing'], uncertainty: '' }] };
    const h = harness([
      [...toolCall('f1', 'finalize_response', observed), finish()],
      [...toolCall('f2', 'finalize_response', { ...observed, claims: [{ ...observed.claims[0], evidence: ['ev_real'] }] }), finish()],
    ], { evidence: ['ev_real'] });
    const result = await h.run();
    expect((h.model.requests[1]!.messages.at(-1) as { content: string }).content).toMatch(/no evidence "ev_missing" exists in this session/);
    expect(result.status).toBe('completed');
    expect(result.answer!.claims[0]!.evidence).toEqual(['ev_real']);
  });

  it('fails with invalid_output after the bounded number of invalid finalize attempts', async () => {
    const bad = [...toolCall('f', 'finalize_response', { summary: 'x' }), finish()];
    const h = harness([bad, bad, bad]);
    const result = await h.run();
    expect(result).toMatchObject({ status: 'failed', failureCode: 'invalid_output' });
    expect(h.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'error' });
  });

  it('answers a finalize_response mixed into a batch with an error, and runs the rest', async () => {
    const h = harness([
      [...toolCall('a', 'list_dir', {}), ...toolCall('b', 'finalize_response', validAnswer), finish()],
      [...toolCall('c', 'finalize_response', validAnswer), finish()],
    ]);
    await h.run();
    expect(h.batches).toEqual([[expect.objectContaining({ id: 'a' })]]);
    const msgs = h.model.requests[1]!.messages;
    expect(msgs.at(-1)).toMatchObject({ role: 'tool', toolCallId: 'b', isError: true });
    expect((msgs.at(-1) as { content: string }).content).toMatch(/must be the only call/);
  });

  it('records a tool call whose arguments do not parse, answers it, and does not execute it', async () => {
    const h = harness([
      [...toolCall('bad', 'web_fetch', '{"url": "https://x'), finish()],
      [...toolCall('f', 'finalize_response', validAnswer), finish()],
    ]);
    await h.run();
    expect(h.batches).toEqual([]);
    expect(h.chunks).toContainEqual(expect.objectContaining({ type: 'tool-input-error', toolCallId: 'bad', input: '{"url": "https://x' }));
    const msg = h.model.requests[1]!.messages.at(-1) as { content: string; isError: boolean };
    expect(msg.isError).toBe(true);
    expect(msg.content).toMatch(/not valid JSON.*Raw arguments: \{"url": "https:\/\/x/);
    // The assistant turn keeps the raw text it sent.
    expect(h.model.requests[1]!.messages.at(-2)).toMatchObject({ toolCalls: [{ id: 'bad', rawArguments: '{"url": "https://x' }] });
  });

  it('writes results back in the provider order whatever order they finish in', async () => {
    const h = harness(
      [
        [...toolCall('1', 'read_text_file', {}), ...toolCall('2', 'list_dir', {}), ...toolCall('3', 'glob_files', {}), finish()],
        [...toolCall('f', 'finalize_response', validAnswer), finish()],
      ],
      { executor: async (calls) => [...calls].reverse().map((c) => ({ toolCallId: c.id, toolName: c.name, content: c.id, isError: false })) },
    );
    await h.run();
    const tools = h.model.requests[1]!.messages.filter((m) => m.role === 'tool').map((m) => (m as { toolCallId: string }).toolCallId);
    expect(tools).toEqual(['1', '2', '3']);
  });

  it('is cancelled mid-stream and drops everything after the abort', async () => {
    const h = harness([[{ type: 'text-delta', text: 'Part one, ' }, { type: 'text-delta', text: 'part two' }, finish()]]);
    h.model.onPart = (part) => {
      if (part.type === 'text-delta') h.controller.abort();
    };
    const result = await h.run();
    expect(result).toMatchObject({ status: 'cancelled', failureCode: 'cancelled' });
    expect(h.chunks.at(-1)).toMatchObject({ type: 'abort' });
    expect(types(h.chunks).filter((t) => t === 'text-delta')).toHaveLength(1);
  });

  it('fails with provider_unavailable on a provider error, and not_configured on an authentication error', async () => {
    const err = (errorType: 'network' | 'authentication') => [{
      type: 'error' as const,
      error: { errorType, code: 'x', message: 'boom', status: errorType === 'network' ? null : 401, provider: 'mock', retryable: false },
    }];
    expect(await harness([err('network')]).run()).toMatchObject({ status: 'failed', failureCode: 'provider_unavailable', failureMessage: 'mock: boom' });
    expect(await harness([err('authentication')]).run()).toMatchObject({ status: 'failed', failureCode: 'not_configured' });
  });

  it('stops at max turns with budget_exhausted', async () => {
    const loop = [...toolCall('x', 'list_dir', {}), finish()];
    const result = await harness([loop, loop, loop], { maxTurns: 2 }).run();
    expect(result).toMatchObject({ status: 'failed', failureCode: 'budget_exhausted', turns: 2 });
  });

  it('completes from a cell that submits a valid answer with host.submit_output', async () => {
    const h = harness([text('```python\nhost.submit_output(answer)\n```')], {
      cell: async () => ({ ok: true, summary: '', submitted: validAnswer }),
    });
    const result = await h.run();
    expect(result).toMatchObject({ status: 'completed', answer: { cited: true } });
  });

  it('sums usage over the turns', async () => {
    const h = harness([text('a'), text('b')]);
    const result = await h.run();
    expect(result.usage).toEqual({ promptTokens: 20, completionTokens: 10, reasoningTokens: null, cachedTokens: null });
  });
});

describe('failure codes of provider errors', () => {
  it('names a request over the context window input_too_large, keys not_configured, the rest provider_unavailable', async () => {
    const { failureCodeOf } = await import('../../../src-main/core/engine/loop');
    expect(failureCodeOf({ errorType: 'validation', code: 'context_length_exceeded', message: "This model's maximum context length is 128000 tokens" })).toBe('input_too_large');
    expect(failureCodeOf({ errorType: 'llm', code: 'invalid_request_error', message: 'prompt is too long: 210000 tokens > 200000 maximum' })).toBe('input_too_large');
    expect(failureCodeOf({ errorType: 'authentication', code: 'invalid_api_key', message: 'Incorrect API key' })).toBe('not_configured');
    expect(failureCodeOf({ errorType: 'rate_limit', code: '429', message: 'slow down' })).toBe('provider_unavailable');
  });
});

describe('artifact ids in the answer', () => {
  it('refuses an artifact version id that does not exist in the session, naming it', async () => {
    const { checkCitedAnswer } = await import('../../../src-main/core/engine/finalize');
    const lookup = { missing: () => [], missingArtifacts: (ids: readonly string[]) => ids.filter((id) => id !== 'av_real') };
    const ok = await checkCitedAnswer({ ...validAnswer, artifacts: ['av_real'] }, lookup);
    expect(ok.ok).toBe(true);
    const bad = await checkCitedAnswer({ ...validAnswer, artifacts: ['av_real', 'av_made_up'] }, lookup);
    expect(bad).toEqual({ ok: false, errors: [expect.stringContaining('no artifact version "av_made_up" exists in this session')] });
  });
});
