import { describe, expect, it } from 'vitest';
import { fold } from '../../../src-preload/contract/fold';
import type { StreamChunk, ToolUIPart } from '../../../src-preload/contract/stream';
import { runEngine } from '../../../src-main/core/engine/loop';
import { restrictedExecutor } from '../../../src-main/core/delegation/childPorts';
import type { EnginePorts, ToolResult } from '../../../src-main/core/engine/ports';
import type { ToolCallRecord } from '../../../src-main/core/engine/routeAction';
import type { LlmMessage } from '../../../src-main/core/llm/types';
import { RecordingMockModel, finish, toolCall, validAnswer, type ScriptedReply } from '../../support/mockModel';

/**
 * A failed tool call's `tool-output-error` chunk names its case (errorCode) for the window;
 * the model's next request carries the same English text as before and no code.
 */

async function run(script: ScriptedReply[], results: (calls: ToolCallRecord[]) => ToolResult[] = () => []) {
  const model = new RecordingMockModel(script);
  const chunks: StreamChunk[] = [];
  const ports: EnginePorts = {
    model,
    executor: { executeBatch: async (calls) => results(calls) },
    kernel: { executeCell: async () => ({ ok: true, summary: '' }) },
    context: { prepare: (h: readonly LlmMessage[]) => [...h] },
    sink: { emit: (c) => chunks.push(c) },
    evidence: { missing: (ids) => [...ids] },
  };
  await runEngine(ports, { sessionId: 's1', runId: 'r1', system: 'sys', tools: [], history: [{ role: 'user', content: 'q' }], signal: new AbortController().signal });
  return { model, chunks };
}

const outputErrors = (chunks: StreamChunk[]) => chunks.filter((c) => c.type === 'tool-output-error');

describe('the code of a tool error chunk', () => {
  it('carries the executor’s code; the model reads only the English text', async () => {
    const text = 'read_text_file failed: No such file or folder in the workspace: "a.csv". List the folder with list_dir to see what exists.';
    const { model, chunks } = await run(
      [[...toolCall('c1', 'read_text_file', { path: 'a.csv' }), finish('tool-calls')], [...toolCall('f', 'finalize_response', validAnswer), finish()]],
      (calls) => calls.map((c) => ({ toolCallId: c.id, toolName: c.name, isError: true, errorCode: 'not_found', content: text })),
    );
    expect(outputErrors(chunks)).toEqual([{ type: 'tool-output-error', toolCallId: 'c1', errorText: text, errorCode: 'not_found' }]);
    const told = model.requests[1]!.messages.at(-1)!;
    expect(told).toEqual({ role: 'tool', toolCallId: 'c1', toolName: 'read_text_file', content: text, isError: true });
  });

  it('an error without a code (an older executor) goes out as text only', async () => {
    const { chunks } = await run(
      [[...toolCall('c1', 'x_tool', {}), finish('tool-calls')], [...toolCall('f', 'finalize_response', validAnswer), finish()]],
      (calls) => calls.map((c) => ({ toolCallId: c.id, toolName: c.name, isError: true, content: 'x_tool failed: no' })),
    );
    expect(outputErrors(chunks)).toEqual([{ type: 'tool-output-error', toolCallId: 'c1', errorText: 'x_tool failed: no' }]);
  });

  it('arguments that are not JSON are invalid_arguments; a refused finalize_response is answer_not_accepted', async () => {
    const { chunks } = await run([
      [...toolCall('bad', 'web_fetch', '{"url": "https://x'), finish('tool-calls')],
      [...toolCall('f1', 'finalize_response', { ...validAnswer, summary: '' }), finish('tool-calls')],
      [...toolCall('f2', 'finalize_response', validAnswer), finish()],
    ]);
    const byId = Object.fromEntries(outputErrors(chunks).map((c) => [(c as { toolCallId: string }).toolCallId, c]));
    expect(byId.bad).toMatchObject({ errorCode: 'invalid_arguments', errorText: expect.stringMatching(/^Not executed: the arguments are not valid JSON/) });
    expect(byId.f1).toMatchObject({ errorCode: 'answer_not_accepted', errorText: expect.stringMatching(/^finalize_response was not accepted/) });
  });
});

describe('a child agent’s call outside its allow-list', () => {
  it('is not_allowed, and never reaches the inner executor', async () => {
    const reached: string[] = [];
    const executor = restrictedExecutor({ executeBatch: async (calls) => calls.map((c) => (reached.push(c.name), { toolCallId: c.id, toolName: c.name, isError: false, content: 'ok' })) }, new Set(['read_text_file']));
    const calls = [{ id: 'a', name: 'web_fetch', rawArguments: '{}', arguments: {}, parseError: null }];
    const [r] = await executor.executeBatch(calls, { sessionId: 's1', runId: 'r1', signal: new AbortController().signal, emit: () => undefined });
    expect(reached).toEqual([]);
    expect(r).toMatchObject({ isError: true, errorCode: 'not_allowed', content: 'Not executed: the parent agent did not allow web_fetch for this child (allowed: read_text_file).' });
  });
});

describe('folding a tool error', () => {
  const head: StreamChunk[] = [
    { type: 'start', messageId: 'm' },
    { type: 'tool-input-available', toolCallId: 'c1', toolName: 'read_text_file', input: { path: 'a' } },
  ];

  it('keeps the code on the part beside the text', () => {
    const [m] = fold([...head, { type: 'tool-output-error', toolCallId: 'c1', errorText: 'read_text_file failed: gone', errorCode: 'not_found' }]);
    expect(m!.parts[0]).toMatchObject({ state: 'output-error', errorText: 'read_text_file failed: gone', errorCode: 'not_found' });
  });

  it('a recorded chunk without a code folds to the text alone', () => {
    const [m] = fold([...head, { type: 'tool-output-error', toolCallId: 'c1', errorText: 'read_text_file failed: gone' }]);
    const part = m!.parts[0] as ToolUIPart;
    expect(part.errorText).toBe('read_text_file failed: gone');
    expect('errorCode' in part).toBe(false);
  });
});
