import { readUIMessageStream, type UIMessageChunk as SdkChunk } from 'ai';
import { describe, expect, it } from 'vitest';
import { applyChunk, applyChunks, fold, initialFoldState, parsePartialJson } from '../../../src-preload/contract/fold';
import type { StreamChunk, UIMessage } from '../../../src-preload/contract/stream';
import { readSseFixture } from './foldSupport';

/** The AI SDK's own reader, for comparison; keys holding undefined are dropped (JSON view). */
async function sdkFold(chunks: StreamChunk[]): Promise<unknown> {
  const stream = new ReadableStream<SdkChunk>({
    start(c) {
      for (const chunk of chunks) c.enqueue(chunk as SdkChunk);
      c.close();
    },
  });
  let last: unknown;
  for await (const m of readUIMessageStream({ stream })) last = m;
  return JSON.parse(JSON.stringify(last));
}

describe('fold over recorded AI SDK streams', () => {
  it('folds the SDK text stream into one assistant message', () => {
    const messages = fold(readSseFixture('vercel-ai-ui-stream-text.sse'));
    expect(messages).toEqual([
      { id: 'msg-0', role: 'assistant', parts: [{ type: 'step-start' }, { type: 'text', text: 'Hello, world!', state: 'done' }] },
    ]);
  });

  it('keeps the message id of start and interleaved reasoning blocks apart', () => {
    expect(fold(readSseFixture('vercel-ai-ui-stream-testing-doc.sse'))[0]).toMatchObject({ id: 'msg-123', parts: [{ text: 'This is an example.' }] });
    const [m] = fold(readSseFixture('vercel-ai-ui-stream-reasoning-text.sse'));
    const reasoning = m!.parts.filter((p) => p.type === 'reasoning');
    expect(reasoning.map((p) => p.text)).toEqual([
      'I will open the conversation with witty banter.',
      '',
      ' Once the user has relaxed, I will pry for valuable information.',
      ' I need to think about this problem carefully.',
      ' The best solution requires careful consideration of all factors.',
    ]);
    expect(reasoning[3]).toMatchObject({ state: 'done', providerMetadata: { testProvider: { signature: '0987654321' } } });
  });

  it.each(['vercel-ai-ui-stream-text.sse', 'vercel-ai-ui-stream-reasoning-text.sse', 'vercel-ai-ui-stream-testing-doc.sse'])(
    'agrees with the AI SDK reader on the parts of %s',
    async (name) => {
      const chunks = readSseFixture(name);
      const sdk = (await sdkFold(chunks)) as UIMessage;
      const ours = fold(chunks)[0]!;
      // The SDK invents a random id when `start` carries none; everything else must agree.
      expect(ours.parts).toEqual(sdk.parts);
    },
  );

  it('folds every example part type of the protocol doc without throwing', () => {
    const chunks = readSseFixture('vercel-ai-ui-stream-protocol-part-examples.sse');
    const parts = fold(chunks).flatMap((m) => m.parts);
    const types = parts.map((p) => p.type);
    expect(types).toEqual(
      expect.arrayContaining(['text', 'reasoning', 'source-url', 'source-document', 'file', 'data-weather', 'data-error', 'tool-getWeatherInformation', 'step-start']),
    );
    const tool = parts.find((p) => p.type === 'tool-getWeatherInformation');
    // The doc's frames end with a denial after the output.
    expect(tool).toMatchObject({ state: 'output-denied', input: { city: 'San Francisco' }, output: { city: 'San Francisco', weather: 'sunny' } });
  });
});

describe('fold semantics', () => {
  const start: StreamChunk[] = [{ type: 'user-message', messageId: 'u1', text: 'INS?' }, { type: 'start', messageId: 'a1' }];

  it('puts the user turn and the assistant turn in order', () => {
    const messages = fold([...start, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'hi' }, { type: 'finish' }]);
    expect(messages.map((m) => [m.id, m.role])).toEqual([
      ['u1', 'user'],
      ['a1', 'assistant'],
    ]);
    expect(messages[0]!.parts).toEqual([{ type: 'text', text: 'INS?' }]);
  });

  it('replaces a data part with the same type and id, and keeps transient ones out', () => {
    const messages = fold([
      ...start,
      { type: 'data-thinking-step', id: 's1', data: { status: 'in_progress' } },
      { type: 'data-thinking-step', id: 's2', data: { status: 'in_progress' } },
      { type: 'data-thinking-step', id: 's1', data: { status: 'completed' } },
      { type: 'data-terminal-info', data: { text: 'done' }, transient: true },
    ]);
    expect(messages[1]!.parts).toEqual([
      { type: 'data-thinking-step', id: 's1', data: { status: 'completed' } },
      { type: 'data-thinking-step', id: 's2', data: { status: 'in_progress' } },
    ]);
  });

  it('applies JSON patches to a data part immutably and reports a failing patch', () => {
    const before = applyChunks(initialFoldState, [...start, { type: 'data-cell', id: 'c', data: { outputs: ['a'], status: 'running' } }]);
    const snapshot = JSON.stringify(before);
    const after = applyChunks(before, [
      { type: 'data-cell', id: 'c', patch: [{ op: 'add', path: '/outputs/-', value: 'b' }, { op: 'replace', path: '/status', value: 'ok' }] },
      { type: 'data-cell', id: 'c', patch: [{ op: 'remove', path: '/missing' }] },
    ]);
    expect(JSON.stringify(before)).toBe(snapshot);
    const parts = after.messages[1]!.parts;
    expect(parts[0]).toEqual({ type: 'data-cell', id: 'c', data: { outputs: ['a', 'b'], status: 'ok' } });
    expect(parts[1]).toMatchObject({ type: 'data-error', data: { errorText: expect.stringMatching(/patch of data-cell "c" failed/) } });
  });

  it('keeps the raw text of tool arguments and a best-effort partial parse', () => {
    const s = applyChunks(initialFoldState, [
      ...start,
      { type: 'tool-input-start', toolCallId: 'c1', toolName: 'science_search' },
      { type: 'tool-input-delta', toolCallId: 'c1', inputTextDelta: '{"db":"uniprot","query":"IN' },
    ]);
    expect(s.messages[1]!.parts[0]).toEqual({
      type: 'tool-science_search',
      toolCallId: 'c1',
      state: 'input-streaming',
      rawInput: '{"db":"uniprot","query":"IN',
      input: { db: 'uniprot', query: 'IN' },
    });
    expect(parsePartialJson('{"a": [1, 2')).toEqual({ a: [1, 2] });
    expect(parsePartialJson('{"a": 1, "b')).toEqual({ a: 1 });
    expect(parsePartialJson('')).toBeUndefined();
  });

  it('shows an error chunk and a delta for an unopened block instead of throwing', () => {
    const messages = fold([...start, { type: 'text-delta', id: 'x', delta: 'late' }, { type: 'error', errorText: 'rate limited', errorCode: 'rate_limit' }]);
    expect(messages[1]!.parts).toEqual([
      { type: 'text', text: 'late', state: 'streaming' },
      { type: 'data-error', data: { errorText: 'rate limited', errorCode: 'rate_limit' } },
    ]);
  });

  it('never changes a state it was given', () => {
    const s1 = applyChunks(initialFoldState, [...start, { type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: 'a' }]);
    const copy = structuredClone(s1);
    const s2 = applyChunk(s1, { type: 'text-delta', id: 't', delta: 'b' });
    expect(s1).toEqual(copy);
    expect(s2.messages[1]!.parts[0]).toMatchObject({ text: 'ab' });
    // Untouched messages are shared, not copied.
    expect(s2.messages[0]).toBe(s1.messages[0]);
  });
});
