import { parseJsonEventStream } from '@ai-sdk/provider-utils';
import { readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { runEngine } from '../../../src-main/core/engine/loop';
import { SSE_DONE, sseEvent } from '../../../src-main/core/engine/sse';
import { RecordingMockModel, finish, toolCall, validAnswer } from '../../support/mockModel';

/** Reads an SSE body with the ai package's own parser and UI message reader. */
async function readWithAiSdk(sse: string): Promise<{ message: UIMessage | undefined; errors: unknown[] }> {
  const bytes = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(sse));
      c.close();
    },
  });
  const errors: unknown[] = [];
  const chunks = parseJsonEventStream({ stream: bytes, schema: uiMessageChunkSchema() as never }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, UIMessageChunk>({
      transform(result, controller) {
        if (result.success) controller.enqueue(result.value as UIMessageChunk);
        else errors.push(result.error);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream: chunks, onError: (e) => errors.push(e) })) message = m;
  return { message, errors };
}

describe('the engine stream is a valid AI SDK UI message stream', () => {
  it('parses with readUIMessageStream into the expected message', async () => {
    const model = new RecordingMockModel([
      [
        { type: 'reasoning-delta', text: 'Look it up first.' },
        { type: 'text-delta', text: 'Searching UniProt.' },
        ...toolCall('call_1', 'science_search', { db: 'uniprot', query: 'INS human' }),
        finish('tool-calls'),
      ],
      [{ type: 'text-delta', text: '```python\nprint(6*7)\n```' }, finish()],
      [...toolCall('call_2', 'finalize_response', validAnswer), finish('tool-calls')],
    ]);
    const chunks: StreamChunk[] = [];
    const result = await runEngine(
      {
        model,
        executor: {
          executeBatch: async (calls) =>
            calls.map((c) => ({ toolCallId: c.id, toolName: c.name, isError: false, content: 'P01308', output: { hits: ['P01308'] } })),
        },
        kernel: {
          executeCell: async (_lang, code, ctx) => {
            ctx.emit({ type: 'data-cell', id: 'cell-1', data: { code, status: 'done', stdout: '42\n' } });
            return { ok: true, summary: '42' };
          },
        },
        context: { prepare: (h) => [...h] },
        sink: { emit: (c) => chunks.push(c) },
        evidence: { missing: () => [] },
      },
      { sessionId: 's', runId: 'run-1', system: 's', tools: [], history: [{ role: 'user', content: 'INS?' }], signal: new AbortController().signal },
    );
    expect(result.status).toBe('completed');

    const sse = chunks.map(sseEvent).join('') + SSE_DONE;
    const { message, errors } = await readWithAiSdk(sse);
    expect(errors).toEqual([]);
    expect(message?.id).toBe('run-1');
    const parts = message!.parts;
    // Each call, cell and the answer is also a step of what the run is doing (kind activity).
    expect(parts.map((p) => p.type)).toEqual([
      'step-start', 'reasoning', 'text', 'tool-science_search', 'data-thinking-step',
      'step-start', 'text', 'data-thinking-step', 'data-cell',
      'step-start', 'tool-finalize_response', 'data-thinking-step', 'data-answer',
    ]);
    const steps = parts.filter((p) => p.type === 'data-thinking-step').map((p) => (p as { data: { title: string; status: string; kind: string } }).data);
    expect(steps).toMatchObject([
      { title: 'Searching the databases for "INS human"', status: 'completed', kind: 'activity', toolCallId: 'call_1' },
      { title: 'Running Python code', status: 'completed', kind: 'activity' },
      { title: 'Writing the answer', status: 'completed', kind: 'activity' },
    ]);
    expect(parts[3]).toMatchObject({ state: 'output-available', input: { db: 'uniprot' }, output: { hits: ['P01308'] } });
    expect(parts[2]).toMatchObject({ text: 'Searching UniProt.', state: 'done' });
    expect(parts.at(-1)).toMatchObject({ id: 'run-1', data: { summary: validAnswer.summary, cited: true } });
  });
});
