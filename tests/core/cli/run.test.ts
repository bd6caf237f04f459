import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseJsonEventStream } from '@ai-sdk/provider-utils';
import { readUIMessageStream, uiMessageChunkSchema, type UIMessage, type UIMessageChunk } from 'ai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { readTranscript, startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { validAnswer } from '../../support/mockModel';

const KEY = 'sk-test-never-printed-4242';
let dir: string;
let server: ScriptedModel;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-run-'));
});
afterEach(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    OPENAI4S_DATA_DIR: dir,
    OPENAI4S_OPENAI_BASE_URL: server.baseUrl,
    OPENAI4S_OPENAI_API_KEY: KEY,
    OPENAI4S_KERNEL_PREWARM: '0',
  };
}

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(
    args,
    { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`), write: (t) => (stdout += t) },
    env(),
  );
  return { code, stdout, stderr };
}

async function parseWithAiSdk(sse: string): Promise<{ message: UIMessage | undefined; errors: unknown[] }> {
  const errors: unknown[] = [];
  const bytes = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode(sse));
      c.close();
    },
  });
  const chunks = parseJsonEventStream({ stream: bytes, schema: uiMessageChunkSchema() as never }).pipeThrough(
    new TransformStream<{ success: boolean; value?: unknown; error?: unknown }, UIMessageChunk>({
      transform(r, c) {
        if (r.success) c.enqueue(r.value as UIMessageChunk);
        else errors.push(r.error);
      },
    }),
  );
  let message: UIMessage | undefined;
  for await (const m of readUIMessageStream({ stream: chunks, onError: (e) => errors.push(e) })) message = m;
  return { message, errors };
}

const transcriptText = (raw: string) =>
  raw
    .split('\n')
    .filter((l) => l.startsWith('data: {'))
    .map((l) => (JSON.parse(l.slice(6)) as { choices: { delta?: { content?: string } }[] }).choices[0]?.delta?.content ?? '')
    .join('');

describe('openai4s run', () => {
  it('streams a recorded real OpenAI transcript as a UI message stream the ai package parses', async () => {
    const raw = readTranscript('openai-chat-gpt4o-mini-after-tool-text.raw.sse');
    // Text only: the engine nudges once, and the second text-only reply is the answer.
    server = await startScriptedModel([{ raw }, { raw }]);
    const { code, stdout, stderr } = await cli(['run', 'What is the capital of France?', '--provider', 'openai', '--stream', 'ui']);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    // Nothing but SSE on stdout, ending with [DONE].
    const events = stdout.split('\n\n').filter(Boolean);
    expect(events.every((e) => e.startsWith('data: '))).toBe(true);
    expect(events.at(-1)).toBe('data: [DONE]');
    expect(stdout).not.toContain(KEY);
    const { message, errors } = await parseWithAiSdk(stdout);
    expect(errors).toEqual([]);
    const texts = message!.parts.filter((p) => p.type === 'text').map((p) => (p as { text: string }).text);
    expect(texts).toEqual([transcriptText(raw), transcriptText(raw)]);
    expect(message!.parts.at(-1)).toMatchObject({ type: 'data-answer', data: { cited: false, summary: transcriptText(raw) } });
    // The key went to the server as a bearer token, and nowhere else.
    expect(server.requests[0]!.headers.authorization).toBe(`Bearer ${KEY}`);
    expect(server.requests[0]!.path).toBe('/v1/chat/completions');
  });

  it('prints readable text and the cited answer, and records the session', async () => {
    server = await startScriptedModel([
      { reply: [{ reasoning: 'The user wants a summary.' }, { text: 'Let me answer.' }] , finishReason: 'stop' },
      { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
    ]);
    const { code, stdout, stderr } = await cli(['run', 'What is insulin?', '--provider', 'openai']);
    expect(code).toBe(0);
    expect(stdout).toContain('The user wants a summary.');
    expect(stdout).toContain('Let me answer.');
    expect(stdout).toContain('── Answer ──');
    expect(stdout).toContain(validAnswer.summary);
    expect(stdout).toMatch(/\(inferred\) Insulin is a peptide hormone\./);
    expect(stderr).toMatch(/^session .* · run /);
    const sessions = JSON.parse((await cli(['sessions', '--json'])).stdout);
    expect(sessions).toHaveLength(1);
    expect(sessions[0].title).toBe('What is insulin?');
  });

  it('fails at once with a one-line reason naming the variable when the provider has no key, and stores nothing', async () => {
    server = await startScriptedModel([]);
    let stderr = '';
    let written = '';
    const noKey = { ...env(), OPENAI4S_ANTHROPIC_API_KEY: '', OPENAI4S_LLM_API_KEY: '' };
    const code = await runCli(['run', 'hi', '--provider', 'anthropic'], { out: (t) => (written += t), err: (t) => (stderr += t), write: (t) => (written += t) }, noKey);
    expect(code).toBe(1);
    expect(stderr).toMatch(/^No API key for Anthropic\. Set OPENAI4S_ANTHROPIC_API_KEY or OPENAI4S_LLM_API_KEY/);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(written).toBe('');
    expect(server.requests).toHaveLength(0);
    // No empty session with a failed run is left behind; an unknown provider is said the same way.
    expect(JSON.parse((await cli(['sessions', '--json'])).stdout)).toEqual([]);
    stderr = '';
    expect(await runCli(['run', 'hi', '--provider', 'nope'], { out: () => {}, err: (t) => (stderr += t), write: () => {} }, noKey)).toBe(1);
    expect(stderr).toMatch(/^Unknown provider "nope"\. Use one of: /);
    expect(JSON.parse((await cli(['sessions', '--json'])).stdout)).toEqual([]);
  });

  it('reports a provider failure with a non-zero exit', async () => {
    server = await startScriptedModel([{ error: { status: 401, body: { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } } } }]);
    const { code, stderr } = await cli(['run', 'hi', '--provider', 'openai', '--stream', 'ui']);
    expect(code).toBe(1);
    expect(stderr).toMatch(/run failed \(not_configured\): openai: .*Incorrect API key/);
  });

  it('refuses an SSRF web_fetch with unattended approval, and denies it headless without', async () => {
    for (const [approval, expected] of [
      ['allow', /refused|private|link-local|not allowed/i],
      ['', /denied|no one to ask|OPENAI4S_UNATTENDED_APPROVAL/i],
    ] as const) {
      await server?.close();
      server = await startScriptedModel([
        { reply: [{ toolCall: { name: 'web_fetch', arguments: { url: 'http://169.254.169.254/latest/meta-data/' } } }] },
        { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
      ]);
      let stdout = '';
      const code = await runCli(
        ['run', 'fetch the metadata', '--provider', 'openai', '--stream', 'ui'],
        { out: () => {}, err: () => {}, write: (t) => (stdout += t) },
        { ...env(), OPENAI4S_UNATTENDED_APPROVAL: approval },
      );
      expect(code).toBe(0);
      const body = server.requests[1]!.body as { messages: { role: string; content: string }[] };
      const toolMessage = body.messages.find((m) => m.role === 'tool')!;
      expect(toolMessage.content).toMatch(expected);
      expect(stdout).toContain('"type":"tool-output-');
    }
  });

  it('runs as a real process from the built CLI', async () => {
    if (!fs.existsSync(path.resolve('out/main/cli.js'))) return expect.fail('run `npm run build` first: out/main/cli.js is missing');
    server = await startScriptedModel([{ reply: [{ text: 'Paris.' }] }, { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] }]);
    const child = spawn(process.execPath, ['bin/openai4s.cjs', 'run', 'Capital of France?', '--provider', 'openai', '--stream', 'ui'], { env: env() });
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => (err += d));
    const code = await new Promise<number | null>((r) => child.on('close', r));
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out.endsWith('data: [DONE]\n\n')).toBe(true);
    const { message, errors } = await parseWithAiSdk(out);
    expect(errors).toEqual([]);
    expect(message!.parts.find((p) => p.type === 'text')).toMatchObject({ text: 'Paris.' });
  });
});
