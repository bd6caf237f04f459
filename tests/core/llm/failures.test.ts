/**
 * Failures behave as specified: malformed SSE, a stream cut inside a tool call,
 * 401, 429 then success (Retry-After honoured), bounded 5xx retries, no retry once
 * output was streamed, abort mid-stream (the HTTP stream closes at once), missing key.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LlmError, createModel, type Part } from '../../../src-main/core/llm';
import { readTranscript, startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { collect, compact, envOf, hello, last, modelAt, textOf } from './helpers';

let server: ScriptedModel;
beforeEach(async () => {
  server = await startScriptedModel();
});
afterEach(() => server.close());

const errorOf = (parts: Part[]) => {
  const p = last(parts);
  if (p.type !== 'error') throw new Error(`expected a final error part, got ${JSON.stringify(p)}`);
  return p.error;
};

describe('malformed and truncated streams', () => {
  it('malformed SSE data: text so far, then one classified error, and the stream stops', async () => {
    server.push({ reply: [{ text: 'Hello' }, { rawData: '{"choices":[{"delta":{"content": BROKEN' }, { text: ' never seen' }] });
    const parts = await collect(modelAt('ark', server.baseUrl).stream(hello));
    expect(textOf(parts)).toBe('Hello');
    expect(errorOf(parts)).toMatchObject({ errorType: 'llm', code: 'invalid_response', provider: 'ark', retryable: false });
    expect(parts.filter((p) => p.type === 'error' || p.type === 'finish')).toHaveLength(1);
    expect(server.requests).toHaveLength(1);
  });

  it('a connection dropped inside a tool call reports the partial call (complete: false) and a network error', async () => {
    server.push({ reply: [{ text: 'Let me search.' }, { toolCall: { id: 'call_1', name: 'science_search', arguments: '{"database":"uniprot","que' } }], cut: true });
    const parts = await collect(modelAt('ark', server.baseUrl).stream(hello));
    const end = parts.find((p) => p.type === 'tool-call-end');
    expect(end).toMatchObject({
      id: 'call_1',
      name: 'science_search',
      rawArguments: '{"database":"uniprot","que',
      arguments: undefined,
      complete: false,
    });
    expect(end?.type === 'tool-call-end' && end.parseError).toMatch(/stream ended before this tool call was complete/);
    expect(errorOf(parts)).toMatchObject({ errorType: 'network' });
    expect(parts.some((p) => p.type === 'finish')).toBe(false);
  });

  it('a body that ends cleanly without finish_reason is reported as truncated', async () => {
    server.push({ raw: readTranscript('openai-chat-gpt4o-mini-toolcall.raw.sse').split('\n\n').slice(0, 4).join('\n\n') + '\n\n' });
    const parts = await collect(modelAt('openai', server.baseUrl).stream(hello));
    expect(parts.find((p) => p.type === 'tool-call-end')).toMatchObject({ name: 'get_capital', rawArguments: '{"country":"', complete: false });
    expect(errorOf(parts)).toMatchObject({ errorType: 'network', code: 'stream_truncated' });
  });

  it('a recorded Anthropic stream cut inside input_json_delta reports the partial call', async () => {
    const raw = readTranscript('anthropic-messages-tool-search-then-tool-use.raw.sse');
    const cutAt = raw.indexOf('"partial_json":"ncy\\""');
    expect(cutAt).toBeGreaterThan(0);
    server.push({ raw: raw.slice(0, raw.lastIndexOf('\n\n', cutAt) + 2) });
    const parts = await collect(modelAt('anthropic', server.baseUrl).stream(hello));
    const ends = parts.filter((p) => p.type === 'tool-call-end');
    expect(ends.map((p) => [p.name, p.complete])).toEqual([
      ['tool_search_tool_bm25', true],
      ['get_exchange_rate', false],
    ]);
    expect(ends[1]).toMatchObject({ rawArguments: '{"from_curre', arguments: undefined });
    expect(errorOf(parts)).toMatchObject({ errorType: 'network', code: 'stream_truncated', provider: 'anthropic' });
  });
});

describe('HTTP errors and retries', () => {
  it('401 is an authentication error with the provider code and message, not retried', async () => {
    server.push({ error: { status: 401 } });
    const parts = await collect(modelAt('openai', server.baseUrl).stream(hello));
    expect(parts).toHaveLength(1);
    expect(errorOf(parts)).toEqual({
      errorType: 'authentication',
      code: 'invalid_api_key',
      message: 'Incorrect API key provided (scripted model).',
      status: 401,
      provider: 'openai',
      retryable: false,
    });
    expect(server.requests).toHaveLength(1);
  });

  it('Anthropic and Gemini error bodies keep their own codes', async () => {
    server.push({ error: { status: 401, body: { type: 'error', error: { type: 'authentication_error', message: 'invalid x-api-key' } } } });
    expect(errorOf(await collect(modelAt('anthropic', server.baseUrl).stream(hello)))).toMatchObject({
      errorType: 'authentication',
      code: 'authentication_error',
      message: 'invalid x-api-key',
    });
    server.push({ error: { status: 400, body: { error: { code: 400, message: 'API key not valid. Please pass a valid API key.', status: 'INVALID_ARGUMENT' } } } });
    expect(errorOf(await collect(modelAt('gemini', server.baseUrl).stream(hello)))).toMatchObject({
      errorType: 'validation',
      code: '400',
      message: 'API key not valid. Please pass a valid API key.',
      status: 400,
    });
  });

  it('429 then success: waits what Retry-After says, then streams normally', async () => {
    server.push({ error: { status: 429, headers: { 'retry-after': '1' } } }, { reply: [{ text: 'ok after waiting' }] });
    const parts = await collect(modelAt('openai', server.baseUrl).stream(hello));
    expect(parts[0]).toMatchObject({ type: 'retry', attempt: 1, delayMs: 1000, error: { errorType: 'rate_limit', code: 'rate_limit_exceeded', status: 429 } });
    expect(textOf(parts)).toBe('ok after waiting');
    expect(last(parts)).toMatchObject({ type: 'finish', reason: 'stop' });
    expect(server.requests).toHaveLength(2);
    expect(server.requests[1]!.receivedAt - server.requests[0]!.receivedAt).toBeGreaterThanOrEqual(950);
  });

  it('5xx retries are bounded, with growing jittered backoff, then the error is reported', async () => {
    for (let i = 0; i < 3; i++) server.push({ error: { status: 503 } });
    const m = modelAt('openai', server.baseUrl, { retry: { maxRetries: 2, baseDelayMs: 40, maxDelayMs: 1000 }, random: () => 1 });
    const parts = await collect(m.stream(hello));
    expect(parts.filter((p) => p.type === 'retry').map((p) => p.type === 'retry' && p.delayMs)).toEqual([40, 80]);
    expect(errorOf(parts)).toMatchObject({ errorType: 'llm', status: 503, retryable: true });
    expect(server.requests).toHaveLength(3);
  });

  it('retry and error parts of a provider that echoes the key carry it redacted, on every path that makes them', async () => {
    const echo = { error: { status: 503, body: { error: { message: 'upstream said: key test-key-123 is overloaded', type: 'server_error', code: 'test-key-123' } } } };
    server.push(echo, echo);
    const m = modelAt('openai', server.baseUrl, { retry: { maxRetries: 1, baseDelayMs: 5, maxDelayMs: 20 } });
    const parts = await collect(m.stream(hello));
    expect(parts.map((p) => p.type)).toEqual(['retry', 'error']);
    expect(JSON.stringify(parts)).not.toContain('test-key-123');
    expect(parts[0]).toMatchObject({ type: 'retry', error: { message: expect.stringContaining('[redacted]'), code: '[redacted]' } });
    expect(errorOf(parts)).toMatchObject({ message: expect.stringContaining('[redacted]'), code: '[redacted]' });
  });

  it('a Retry-After beyond the bound is not waited for', async () => {
    server.push({ error: { status: 429, headers: { 'retry-after': '3600' } } });
    const parts = await collect(modelAt('openai', server.baseUrl).stream(hello));
    expect(parts.map((p) => p.type)).toEqual(['error']);
    expect(server.requests).toHaveLength(1);
  });

  it('an in-stream rate-limit error before any output is retried; after output it is reported', async () => {
    const limited = JSON.stringify({ error: { message: 'Too many requests', type: 'rate_limit_error', code: 'rate_limit_exceeded' } });
    server.push({ reply: [{ rawData: limited }] }, { reply: [{ text: 'second try' }] });
    const retried = compact(await collect(modelAt('ark', server.baseUrl).stream(hello)));
    expect(retried.map((p) => p.type)).toEqual(['retry', 'text-delta', 'finish']);

    server.push({ reply: [{ text: 'partial' }, { rawData: limited }] }, { reply: [{ text: 'must not be requested' }] });
    const reported = await collect(modelAt('ark', server.baseUrl).stream(hello));
    expect(textOf(reported)).toBe('partial');
    expect(errorOf(reported)).toMatchObject({ errorType: 'rate_limit', code: 'rate_limit_exceeded', message: 'Too many requests' });
    expect(server.requests).toHaveLength(3);
  });

  it('a refused connection is a network error, retried within the bound', async () => {
    const dead = await startScriptedModel();
    const url = dead.baseUrl;
    await dead.close();
    const parts = await collect(modelAt('ollama', url, { retry: { maxRetries: 1, baseDelayMs: 5 } }).stream(hello));
    expect(parts.map((p) => p.type)).toEqual(['retry', 'error']);
    expect(errorOf(parts)).toMatchObject({ errorType: 'network', code: 'ECONNREFUSED', status: null });
    // Said once, with what to do: the local server is to be started (or its address changed).
    const message = (errorOf(parts) as { message: string }).message;
    expect(message.match(/ECONNREFUSED/g)).toHaveLength(1);
    expect(message).toMatch(/; start the model server at http:\/\/127\.0\.0\.1:\d+ \(for Ollama: ollama serve\), or change the provider’s base URL in Settings → Providers\.$/);
  });
});

describe('abort', () => {
  it('abort mid-stream ends the parts at once and closes the HTTP stream', async () => {
    server.push({ reply: [{ text: 'first' }, { delayMs: 5000 }, { text: 'second' }] });
    const controller = new AbortController();
    const parts: Part[] = [];
    let abortedAt = 0;
    for await (const p of modelAt('ark', server.baseUrl).stream({ ...hello, signal: controller.signal })) {
      parts.push(p);
      if (p.type === 'text-delta' && !abortedAt) {
        abortedAt = Date.now();
        controller.abort();
      }
    }
    expect(Date.now() - abortedAt).toBeLessThan(1000);
    expect(textOf(parts)).toBe('first');
    expect(last(parts)).toMatchObject({ type: 'finish', reason: 'aborted', cost: null });
    await server.waitForRequestsEnded(1);
    expect(server.requests[0]!.clientClosedAt! - abortedAt).toBeLessThan(500);
  });

  it('abort while the provider has not answered, and during a retry wait', async () => {
    server.push({ hang: true });
    const controller = new AbortController();
    // Aborted once the server holds the request (a fixed 100 ms could abort a cold first
    // request before it was sent, leaving the hang step to the next one).
    const arrived = setInterval(() => {
      if (server.requests.length > 0) {
        clearInterval(arrived);
        controller.abort();
      }
    }, 5);
    const hung = await collect(modelAt('ark', server.baseUrl).stream({ ...hello, signal: controller.signal }));
    clearInterval(arrived);
    expect(hung.map((p) => p.type === 'finish' && p.reason)).toEqual(['aborted']);
    await server.waitForRequestsEnded(1);

    server.push({ error: { status: 429, headers: { 'retry-after': '30' } } });
    const c2 = new AbortController();
    // Aborted once the retry wait has begun (a fixed 100 ms raced the 429 on a loaded machine).
    const waiting: { type: string }[] = [];
    let abortedAt = 0;
    for await (const part of modelAt('ark', server.baseUrl).stream({ ...hello, signal: c2.signal })) {
      waiting.push(part);
      if (part.type === 'retry') {
        abortedAt = Date.now();
        c2.abort();
      }
    }
    expect(waiting.map((p) => p.type)).toEqual(['retry', 'finish']);
    // The 30 s Retry-After wait ends with the abort, not after it.
    expect(Date.now() - abortedAt).toBeLessThan(2000);
  });

  it('a consumer that stops iterating closes the connection', async () => {
    server.push({ reply: [{ text: 'one' }, { delayMs: 5000 }, { text: 'two' }] });
    for await (const p of modelAt('ark', server.baseUrl).stream(hello)) {
      if (p.type === 'text-delta') break;
    }
    await server.waitForRequestsEnded(1, 1000);
    expect(server.requests[0]!.clientClosedAt).not.toBeNull();
  });
});

describe('keys', () => {
  it('a missing or placeholder key fails at once, naming the variables and Settings; no request is made', () => {
    for (const env of [envOf({}), envOf({ OPENAI4S_ARK_API_KEY: 'sk-xxx', OPENAI4S_ARK_BASE_URL: server.baseUrl })]) {
      let thrown: unknown;
      try {
        createModel('ark', { env });
      } catch (error) {
        thrown = error;
      }
      expect(thrown).toBeInstanceOf(LlmError);
      const info = (thrown as LlmError).info;
      expect(info).toMatchObject({ errorType: 'authentication', code: 'missing_api_key', provider: 'ark' });
      expect(info.message).toContain('OPENAI4S_ARK_API_KEY');
      expect(info.message).toContain('OPENAI4S_LLM_API_KEY');
      expect(info.message).toContain('Settings');
    }
    expect(server.requests).toHaveLength(0);
  });

  it('the shared key works for any provider and is sent as the provider expects', async () => {
    server.push({ reply: [{ text: 'a' }] }, { reply: [{ text: 'b' }] });
    const env = envOf({ OPENAI4S_LLM_API_KEY: 'shared-key-1', OPENAI4S_DEEPSEEK_BASE_URL: server.baseUrl });
    await collect(createModel('deepseek', { env }).stream(hello));
    expect(server.requests[0]!.headers.authorization).toBe('Bearer shared-key-1');
    await collect(createModel('ollama', { env: envOf({ OPENAI4S_OLLAMA_BASE_URL: server.baseUrl }) }).stream(hello));
    expect(server.requests[1]!.headers.authorization).toBeUndefined();
  });

  it('a base URL that is not an http(s) URL fails at once, naming the variable and an example; no request is made', () => {
    for (const [value, message] of [
      ['notaurl', 'OPENAI4S_OPENAI_BASE_URL=notaurl is not an http(s) URL; set it like https://api.openai.com/v1 or unset it.'],
      ['::bad', 'OPENAI4S_OPENAI_BASE_URL=::bad is not an http(s) URL; set it like https://api.openai.com/v1 or unset it.'],
      ['file:///etc/passwd', 'OPENAI4S_OPENAI_BASE_URL=file:///etc/passwd is not an http(s) URL; set it like https://api.openai.com/v1 or unset it.'],
    ]) {
      let thrown: unknown;
      try {
        createModel('openai', { env: envOf({ OPENAI4S_OPENAI_API_KEY: 'sk-proj-real-looking-key-0001', OPENAI4S_OPENAI_BASE_URL: value! }) });
      } catch (error) {
        thrown = error;
      }
      expect((thrown as LlmError).info).toMatchObject({ code: 'invalid_base_url', provider: 'openai', message });
    }
    expect(server.requests).toHaveLength(0);
  });

  it('an unknown provider id names the known ones', () => {
    expect(() => createModel('nope', { env: envOf({}) })).toThrow(/Unknown provider "nope"\. Use one of: ark, openai/);
  });
});

describe('idle timeout', () => {
  it('a provider that goes silent is a timeout error, retried while nothing was streamed', async () => {
    server.push({ hang: true }, { reply: [{ text: 'answer' }] });
    const parts = await collect(modelAt('ark', server.baseUrl, { idleTimeoutMs: 150 }).stream(hello));
    expect(parts[0]).toMatchObject({ type: 'retry', error: { errorType: 'timeout', code: 'idle_timeout' } });
    expect(textOf(parts)).toBe('answer');
    await server.waitForRequestsEnded(2);
    expect(server.requests[0]!.clientClosedAt).not.toBeNull();
  });

  it('silence after output is reported, with the partial tool call', async () => {
    server.push({ reply: [{ toolCall: { id: 'c1', name: 'web_fetch', arguments: '{"url":' } }, { delayMs: 3000 }] });
    const parts = await collect(modelAt('ark', server.baseUrl, { idleTimeoutMs: 150 }).stream(hello));
    expect(parts.find((p) => p.type === 'tool-call-end')).toMatchObject({ rawArguments: '{"url":', complete: false });
    expect(errorOf(parts)).toMatchObject({ errorType: 'timeout', code: 'idle_timeout' });
  });
});

describe('misconfiguration and provider quirks', () => {
  it('a 200 that is not an event stream (proxy page, wrong path) is named as such', async () => {
    server.push({ raw: '<html><body>Welcome to nginx!</body></html>', contentType: 'text/html' });
    const parts = await collect(modelAt('openai', server.baseUrl).stream(hello));
    expect(errorOf(parts)).toMatchObject({ errorType: 'validation', code: 'not_event_stream' });
    expect(errorOf(parts).message).toMatch(/answered with text\/html, not an event stream\. Check OPENAI4S_OPENAI_BASE_URL \(it includes the version path, e\.g\. https:\/\/api\.openai\.com\/v1\)/);
  });

  it('a 404 keeps the provider message and adds the base-URL hint', async () => {
    server.push({ error: { status: 404, body: { error: { message: 'The model `gpt-9` does not exist', type: 'invalid_request_error', code: 'model_not_found' } } } });
    const parts = await collect(modelAt('openai', server.baseUrl, { model: 'gpt-9' }).stream(hello));
    expect(errorOf(parts)).toMatchObject({ errorType: 'llm', code: 'model_not_found', status: 404 });
    expect(errorOf(parts).message).toMatch(/^The model `gpt-9` does not exist \(Check OPENAI4S_OPENAI_BASE_URL .* the model id "gpt-9"\.\)$/);
  });

  it('an Anthropic overloaded_error as the first event is retried', async () => {
    const overloaded = 'event: error\ndata: {"type":"error","error":{"type":"overloaded_error","message":"Overloaded"}}\n\n';
    server.push({ raw: overloaded }, { raw: readTranscript('anthropic-messages-text-then-tool-noargs.chunks.jsonl') });
    const parts = await collect(modelAt('anthropic', server.baseUrl).stream(hello));
    expect(parts[0]).toMatchObject({ type: 'retry', error: { errorType: 'rate_limit', code: 'overloaded_error', message: 'Overloaded' } });
    expect(last(parts)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
  });
});
