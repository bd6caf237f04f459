import fs from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import type { Worker } from 'node:worker_threads';
import { createModel, DEFAULT_RETRY, type LlmRequest, type Part } from '../../../src-main/core/llm';
import { startScriptedModel, type ScriptedModel } from '../../../src-main/core/llm/scripted/server';
import type { ReplyStep, ScriptStep } from '../../../src-main/core/llm/scripted/script';
import { ModelThread, modelThread } from '../../../src-main/core/llm/thread/modelThread';
import { MAX_BATCHES_IN_FLIGHT, type StreamJob } from '../../../src-main/core/llm/thread/protocol';
import { registerSecrets } from '../../../src-main/core/security/secrets';
import { collect, compact, envOf, hello, last, textOf } from './helpers';

const servers: ScriptedModel[] = [];
const threads: ModelThread[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.close()));
  await Promise.all(threads.splice(0).map((t) => t.stop()));
});

async function serve(...steps: ScriptStep[]): Promise<ScriptedModel> {
  const server = await startScriptedModel(steps);
  servers.push(server);
  return server;
}

const long = (deltas: number): ReplyStep => ({ reply: [{ text: 'lorem ip'.repeat(deltas) }], chunkSize: 8 });

function openaiAt(baseUrl: string, extra: Record<string, string> = {}) {
  return createModel('openai', { env: envOf({ OPENAI4S_OPENAI_API_KEY: 'test-key-123', OPENAI4S_OPENAI_BASE_URL: baseUrl, ...extra }) });
}

function jobFor(baseUrl: string): StreamJob {
  return { providerId: 'openai', wire: 'openai-compatible', baseUrl, apiKey: 'test-key-123', model: 'gpt-test', policy: DEFAULT_RETRY, timeouts: { connectMs: 10_000, idleMs: 10_000 } };
}

/** The nice value of each thread of this process (Linux: field 19 of /proc/self/task/<tid>/stat). */
function threadNices(): Map<number, number> {
  const nices = new Map<number, number>();
  for (const tid of fs.readdirSync('/proc/self/task')) {
    try {
      const stat = fs.readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      // After the command name (in parentheses, which may hold spaces): state is field 3, nice field 19.
      nices.set(Number(tid), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]));
    } catch {
      // the thread ended meanwhile
    }
  }
  return nices;
}

/** Reads parts until `stop` says so; the iterator is left open for the caller. */
async function readUntil(it: AsyncIterator<Part>, stop: (p: Part) => boolean): Promise<Part[]> {
  const seen: Part[] = [];
  for (;;) {
    const r = await it.next();
    if (r.done) return seen;
    seen.push(r.value);
    if (stop(r.value)) return seen;
  }
}

describe('provider streams on the model thread', () => {
  it('a model made by createModel streams on the thread and gives the parts the main thread gives', async () => {
    const reply: ReplyStep = {
      reply: [{ reasoning: 'thinking it over' }, { text: 'The answer is "42".\n' }, { toolCall: { name: 'lookup', arguments: { q: 'insulin' }, id: 'call_1' } }],
      usage: { prompt_tokens: 11, completion_tokens: 7 },
    };
    const server = await serve(reply, reply);
    const before = modelThread.served;
    const threaded = compact(await collect(openaiAt(server.baseUrl).stream(hello)));
    expect(modelThread.served).toBe(before + 1);
    const inProcess = compact(await collect(openaiAt(server.baseUrl, { OPENAI4S_MODEL_THREAD: 'off' }).stream(hello)));
    expect(modelThread.served).toBe(before + 1);
    expect(threaded).toEqual(inProcess);
    expect(last(threaded)).toMatchObject({ type: 'finish', reason: 'tool-calls' });
    expect(modelThread.openStreams).toBe(0);
  });

  it.runIf(process.platform === 'linux')('the thread runs at the lowest priority (nice 19) and leaves the calling thread and the rest of the process at theirs', async () => {
    const server = await serve(long(10));
    const own = Number(fs.readlinkSync('/proc/thread-self').split('/').pop());
    const before = threadNices();
    const served = modelThread.served;
    await collect(openaiAt(server.baseUrl).stream(hello));
    expect(modelThread.served).toBe(served + 1);
    const after = threadNices();
    expect(after.get(own)).toBe(before.get(own));
    // Threads that were there before keep their priority; the model thread (new, or from an earlier test) has 19.
    for (const [tid, nice] of before) if (after.has(tid) && nice !== 19) expect(after.get(tid)).toBe(nice);
    expect([...after.values()]).toContain(19);
  });

  it("the caller's signal ends the stream as aborted and closes the provider's connection", async () => {
    const server = await serve({ reply: [{ text: 'first' }, { delayMs: 5000 }, { text: 'second' }] });
    const before = modelThread.served;
    const controller = new AbortController();
    const it = openaiAt(server.baseUrl).stream({ ...hello, signal: controller.signal })[Symbol.asyncIterator]();
    await readUntil(it, (p) => p.type === 'text-delta');
    controller.abort();
    const rest: Part[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
    expect(last(rest)).toMatchObject({ type: 'finish', reason: 'aborted' });
    expect(textOf(rest)).toBe('');
    await server.waitForRequestsEnded(1, 1000);
    expect(server.requests[0]!.clientClosedAt).not.toBeNull();
    expect(modelThread.served).toBe(before + 1);
    expect(modelThread.openStreams).toBe(0);
  });

  it('leaving the loop early closes the connection and forgets the stream', async () => {
    const server = await serve({ reply: [{ text: 'one' }, { delayMs: 5000 }, { text: 'two' }] });
    const before = modelThread.served;
    for await (const part of openaiAt(server.baseUrl).stream(hello)) {
      if (part.type === 'text-delta') break;
    }
    expect(modelThread.served).toBe(before + 1);
    await server.waitForRequestsEnded(1, 1000);
    expect(server.requests[0]!.clientClosedAt).not.toBeNull();
    expect(modelThread.openStreams).toBe(0);
  });

  it('a reader that stops reading holds the thread back: at most a few batches wait for it, and nothing is lost', async () => {
    const deltas = 150_000;
    const server = await serve(long(deltas));
    const it = openaiAt(server.baseUrl).stream(hello)[Symbol.asyncIterator]();
    const first = await readUntil(it, (p) => p.type === 'text-delta');
    await new Promise((r) => setTimeout(r, 400));
    expect(modelThread.bufferedBatches).toBeLessThanOrEqual(MAX_BATCHES_IN_FLIGHT);
    const rest: Part[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
    expect(textOf([...first, ...rest])).toBe('lorem ip'.repeat(deltas));
    expect(last(rest)).toMatchObject({ type: 'finish', reason: 'stop' });
  });

  it('a thread that dies ends its streams with an internal error part, and the next stream starts a new thread', async () => {
    const server = await serve(long(200_000), { reply: [{ text: 'again' }] });
    const thread = new ModelThread();
    threads.push(thread);
    const inProcess = () => {
      throw new Error('the thread should serve this stream');
    };
    const it = thread.stream(jobFor(server.baseUrl), hello, inProcess)[Symbol.asyncIterator]();
    await readUntil(it, (p) => p.type === 'text-delta');
    await (thread as unknown as { worker: Worker }).worker.terminate();
    const rest: Part[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
    expect(last(rest)).toMatchObject({ type: 'error', error: { errorType: 'internal', code: 'model_thread_failed', retryable: false } });
    expect((last(rest) as Extract<Part, { type: 'error' }>).error.message).toMatch(/thread stopped/);
    expect(thread.openStreams).toBe(0);

    const again = await collect(thread.stream(jobFor(server.baseUrl), hello, inProcess));
    expect(textOf(again)).toBe('again');
    expect(thread.served).toBe(2);
  });

  it('stopping the thread ends the streams it serves with an error part instead of leaving them waiting', async () => {
    const server = await serve({ reply: [{ text: 'first' }, { delayMs: 5000 }, { text: 'never' }] });
    const thread = new ModelThread();
    threads.push(thread);
    const inProcess = async function* (): AsyncGenerator<Part> {};
    const it = thread.stream(jobFor(server.baseUrl), hello, inProcess)[Symbol.asyncIterator]();
    await readUntil(it, (p) => p.type === 'text-delta');
    await thread.stop();
    const rest: Part[] = [];
    for (let r = await it.next(); !r.done; r = await it.next()) rest.push(r.value);
    expect(rest).toEqual([expect.objectContaining({ type: 'error', error: expect.objectContaining({ code: 'model_thread_failed' }) })]);
    expect(thread.openStreams).toBe(0);
  });

  it('a thread that cannot start leaves every stream on the main thread, and says why once', async () => {
    const server = await serve({ reply: [{ text: 'from the main thread' }] });
    const thread = new ModelThread({ source: () => ({ file: 'throw new Error("broken bundle")', eval: true }) });
    threads.push(thread);
    const inProcessParts: Part[] = [{ type: 'text-delta', text: 'from the main thread' }];
    const parts = await collect(
      thread.stream(jobFor(server.baseUrl), hello, async function* () {
        yield* inProcessParts;
      }),
    );
    expect(parts).toEqual(inProcessParts);
    expect(thread.unavailable).toMatch(/did not start.*broken bundle/);
    expect(thread.served).toBe(0);
  });

  it("an error part from the thread is scrubbed of every secret the main thread knows, not only the stream's key", async () => {
    const other = 'rosalind.franklin.1920';
    registerSecrets([other]);
    const server = await serve({ error: { status: 400, body: { error: { message: `upstream refused the account ${other}`, type: 'invalid_request_error', code: 'bad_token' } } } });
    const before = modelThread.served;
    const parts = await collect(openaiAt(server.baseUrl).stream(hello));
    expect(modelThread.served).toBe(before + 1);
    const error = last(parts) as Extract<Part, { type: 'error' }>;
    expect(error.type).toBe('error');
    expect(error.error.message).toContain('upstream refused the account');
    expect(error.error.message).not.toContain(other);
  });

  it('a request that cannot be copied to the thread (a function in a schema) is streamed on the main thread instead', async () => {
    const server = await serve({ reply: [{ text: 'ok' }] });
    const schema = { type: 'object', properties: { q: { type: 'string' } }, describe: () => 'not data' };
    const request: LlmRequest = { ...hello, tools: [{ name: 'lookup', description: 'look it up', inputSchema: schema }], signal: new AbortController().signal };
    const before = modelThread.served;
    const parts = await collect(openaiAt(server.baseUrl).stream(request));
    expect(textOf(parts)).toBe('ok');
    expect(modelThread.served).toBe(before);
    expect((server.requests[0]!.body as { tools: unknown[] }).tools).toHaveLength(1);
    expect(modelThread.openStreams).toBe(0);
  });
});
