import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { joinTextDeltas } from '../../../src-main/core/llm/joinTextDeltas';
import { readTranscript, startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { collect, compact, hello, modelAt, reasoningOf, textOf } from './helpers';

const meta = { id: 'chatcmpl-1', object: 'chat.completion.chunk', created: 1762317021, model: 'gpt-4o-mini', system_fingerprint: 'fp_1' };
const event = (delta: Record<string, unknown>, extra: Record<string, unknown> = {}, choice: Record<string, unknown> = {}) =>
  `data: ${JSON.stringify({ ...meta, ...extra, choices: [{ index: 0, delta, logprobs: null, finish_reason: null, ...choice }] })}\n\n`;
const parsed = (sse: string) =>
  sse
    .split('\n\n')
    .filter((e) => e.startsWith('data: {'))
    .map((e) => JSON.parse(e.slice(6)) as { choices: { delta: Record<string, unknown> }[] });

describe('joinTextDeltas: text deltas that arrived together become one event', () => {
  it('joins a run of plain content deltas into one event carrying the whole text and the first event’s fields', () => {
    const out = joinTextDeltas(event({ content: 'Hel' }) + event({ content: 'lo, ' }) + event({ content: '世界' }));
    expect(parsed(out)).toEqual([{ ...meta, choices: [{ index: 0, delta: { content: 'Hello, 世界' }, logprobs: null, finish_reason: null }] }]);
  });

  it('keeps content and reasoning apart and in order, and joins each run of one kind', () => {
    const out = joinTextDeltas(
      event({ reasoning_content: 'think ' }) + event({ reasoning_content: 'more' }) + event({ content: 'an' }) + event({ content: 'swer' }) + event({ reasoning_content: 'again' }),
    );
    expect(parsed(out).map((e) => e.choices[0]!.delta)).toEqual([{ reasoning_content: 'think more' }, { content: 'answer' }, { reasoning_content: 'again' }]);
  });

  it('passes every other event through byte for byte, and it ends the run it interrupts', () => {
    const others = [
      event({ role: 'assistant', content: '' }, {}, {}).replace('"role":"assistant"', '"role":"assistant","refusal":"no"'),
      event({ content: 'x' }, {}, { finish_reason: 'stop' }),
      event({ content: 'x' }, { usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 } }),
      event({ content: 'x' }, {}, { logprobs: { content: [] } }),
      event({ tool_calls: [{ index: 0, function: { arguments: '{"a"' } }] }),
      event({ content: 'x', reasoning_content: 'y' }),
      event({ content: 'x' }, { prompt_filter_results: [] }),
      event({ content: 'x' }, {}, { content_filter_results: {} }),
      'data: {"choices":[{"delta":{"content":"a"}},{"delta":{"content":"b"}}]}\n\n',
      'data: {not json}\n\n',
      'event: message\ndata: {"choices":[{"delta":{"content":"x"}}]}\n\n',
      ': keep-alive\n\n',
      'data: [DONE]\n\n',
    ];
    for (const other of others) {
      const before = event({ content: 'a' }) + event({ content: 'b' });
      const after = event({ content: 'c' }) + event({ content: 'd' });
      const out = joinTextDeltas(before + other + after);
      expect(out).toContain(other);
      expect(parsed(out.replace(other, '')).map((e) => e.choices[0]!.delta.content)).toEqual(['ab', 'cd']);
    }
  });

  it('does not join events of different completions or models, and leaves a lone event and a partial last event as they are', () => {
    const lone = event({ content: 'a' });
    expect(joinTextDeltas(lone)).toBe(lone);
    const two = event({ content: 'a' }) + event({ content: 'b' }, { id: 'chatcmpl-2' });
    expect(joinTextDeltas(two)).toBe(two);
    const partial = 'data: {"id":"chatcmpl-1","choi';
    expect(joinTextDeltas(event({ content: 'a' }) + event({ content: 'b' }) + partial).endsWith(`\n\n${partial}`)).toBe(true);
    const crlf = event({ content: 'a' }).replace('\n\n', '\r\n\r\n').repeat(2);
    expect(joinTextDeltas(crlf)).toBe(crlf);
  });
});

describe('joinTextDeltas: events after the first of a run join without being parsed', () => {
  const textOfAll = (sse: string) => parsed(sse).map((e) => e.choices[0]!.delta.content ?? '').join('');

  it('carries texts with quotes, backslashes, escapes, control characters and non-BMP characters exactly as parsing each event does', () => {
    const texts = ['say "hi"', ' back\\slash', '\n\ttab', ' é\u0001', '😀', '\ud83d', '\ude00', ' </script>', "'", ''];
    const input = texts.map((t) => event({ content: t })).join('');
    const out = joinTextDeltas(input);
    expect(parsed(out)).toHaveLength(1);
    expect(textOfAll(out)).toBe(textOfAll(input));
    // Escaped the way another server writes them: \u escapes for every non-ASCII character.
    const escaped = input.replace(/[^\n -~]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
    const joinedEscaped = joinTextDeltas(escaped);
    expect(textOfAll(joinedEscaped)).toBe(textOfAll(input));
    // Spliced, not re-serialised: the server's own escapes are still there.
    expect(joinedEscaped).toContain(' \\u00e9\\u0001');
  });

  it('joins OpenAI events that differ, besides their text, only in the padding field that ends each of them', () => {
    const padded = (content: string, pad: string) => event({ content }, {}).replace(/\}\n\n$/, `,"obfuscation":"${pad}"}\n\n`);
    const out = joinTextDeltas(padded('Hel', 'a1') + padded('lo', 'QmX9') + padded('!', ''));
    expect(parsed(out)).toHaveLength(1);
    expect(textOfAll(out)).toBe('Hello!');
  });

  it('plain events read in place and escaped, padded or unfinished ones read the checked way give the same text in one event per run', () => {
    const padded = event({ content: ' pad' }).replace(/\}\n\n$/, ',"obfuscation":"zz"}\n\n');
    const unfinished = event({ content: 'tail' }).slice(0, -2);
    const texts = ['a', 'b', 'say "hi"\\', 'c', 'line\nnext', 'd', '', 'e'];
    const piece = texts.map((t) => event({ content: t })).join('') + padded + event({ content: 'f' }) + unfinished;
    const out = joinTextDeltas(piece);
    expect(out.endsWith(unfinished)).toBe(true);
    expect(parsed(out.slice(0, -unfinished.length))).toHaveLength(1);
    expect(textOfAll(out.slice(0, -unfinished.length))).toBe(`${texts.join('')} padf`);
  });

  it('an event with the same bytes around a text that is not a well-formed JSON string is parsed, not spliced', () => {
    const [before, after] = event({ content: 'SPLIT' }).split('SPLIT') as [string, string];
    const hostile = [
      `${before}a","content":"b${after}`, // quotes that change the event's structure: JSON.parse keeps the last "content"
      `${before}bad \\x escape${after}`, // not JSON at all: passed on as it is
      `${before}raw\u0001control${after}`,
      `${before}x"},"finish_reason":"stop","y":{"z":"${after}`,
    ];
    for (const line of hostile) {
      const input = event({ content: 'a' }) + line + event({ content: 'c' });
      const out = joinTextDeltas(input);
      const each = (sse: string) =>
        sse
          .split('\n\n')
          .filter((e) => e.startsWith('data: {'))
          .map((e) => {
            try {
              return JSON.parse(e.slice(6)) as { choices: { delta: { content?: string }; finish_reason?: unknown }[] };
            } catch {
              return null;
            }
          });
      // What the SDK would read: the same texts and the same finish reasons, in order.
      const read = (sse: string) => ({
        text: each(sse).map((e) => e?.choices[0]!.delta.content ?? '').join(''),
        finishes: each(sse).flatMap((e) => (e?.choices[0]!.finish_reason ? [e.choices[0]!.finish_reason] : [])),
        unparsable: each(sse).filter((e) => e === null).length,
      });
      expect(read(out)).toEqual(read(input));
      if (each(line)[0] === null) expect(out).toContain(line);
    }
  });
});

describe('joinTextDeltas through the OpenAI-compatible wire', () => {
  let server: ScriptedModel;
  beforeAll(async () => {
    server = await startScriptedModel();
  });
  afterAll(() => server.close());

  it('a burst of 2,000 deltas read at once gives the whole text and reasoning, the tool call and the usage, as the same bytes trickled 7 at a time do, in far fewer parts than events', async () => {
    const body =
      event({ role: 'assistant', content: '' }) +
      Array.from({ length: 1000 }, (_, i) => event({ reasoning_content: `r${i} ` })).join('') +
      Array.from({ length: 1000 }, (_, i) => event({ content: `t${i} ` })).join('') +
      event({ tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'get_capital', arguments: '' } }] }) +
      event({ tool_calls: [{ index: 0, function: { arguments: '{"country":"UK"}' } }] }) +
      event({}, {}, { finish_reason: 'tool_calls' }) +
      `data: ${JSON.stringify({ ...meta, choices: [], usage: { prompt_tokens: 5, completion_tokens: 2000, total_tokens: 2005 } })}\n\ndata: [DONE]\n\n`;
    const runs = [];
    for (const chunkBytes of [undefined, 7]) {
      server.push({ raw: body, ...(chunkBytes ? { chunkBytes } : {}) });
      runs.push(await collect(modelAt('openai', server.baseUrl).stream(hello)));
    }
    const [whole, trickled] = runs as [Awaited<ReturnType<typeof collect>>, Awaited<ReturnType<typeof collect>>];
    expect(compact(whole)).toEqual(compact(trickled));
    expect(textOf(whole)).toBe(Array.from({ length: 1000 }, (_, i) => `t${i} `).join(''));
    expect(reasoningOf(whole)).toBe(Array.from({ length: 1000 }, (_, i) => `r${i} `).join(''));
    expect(whole.length).toBeLessThan(200);
    expect(compact(whole).map((p) => p.type)).toEqual(['reasoning-delta', 'text-delta', 'tool-call-start', 'tool-call-delta', 'tool-call-end', 'finish']);
    expect(compact(whole).at(-1)).toMatchObject({ reason: 'tool-calls', usage: { promptTokens: 5, completionTokens: 2000 } });
  });

  it('real recorded OpenAI streams parse to the same parts with and without joining', () => {
    for (const fixture of ['openai-chat-gpt4o-mini-after-tool-text.raw.sse', 'deepseek-reasoner-thinking.raw.sse']) {
      const raw = readTranscript(fixture);
      const joined = joinTextDeltas(raw);
      const text = (sse: string) => parsed(sse).flatMap((e) => (e.choices[0]?.delta?.content as string | undefined) ?? []).join('');
      const reasoning = (sse: string) => parsed(sse).flatMap((e) => (e.choices[0]?.delta?.reasoning_content as string | undefined) ?? []).join('');
      expect(text(joined)).toBe(text(raw));
      expect(reasoning(joined)).toBe(reasoning(raw));
      expect(parsed(joined).length).toBeLessThanOrEqual(parsed(raw).length);
    }
  });
});
