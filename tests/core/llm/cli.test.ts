import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runCli } from '../../../src-main/cli/main';
import { startScriptedModel, transcriptStep, type ScriptedModel } from '../../support/scriptedModel';

let server: ScriptedModel;
let dataDir: string;
beforeAll(async () => {
  server = await startScriptedModel();
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-llm-cli-'));
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

function capture() {
  const out: string[] = [];
  const err: string[] = [];
  return { io: { out: (t: string) => void out.push(t), err: (t: string) => void err.push(t) }, out, err };
}

it('openai4s llm streams a recorded OpenAI reply through OPENAI4S_OPENAI_BASE_URL', async () => {
  server.push(transcriptStep('openai-chat-gpt4o-mini-after-tool-text.raw.sse'));
  const c = capture();
  const env = { OPENAI4S_DATA_DIR: dataDir, OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_API_KEY: 'any-key', OPENAI4S_OPENAI_BASE_URL: server.baseUrl };
  expect(await runCli(['llm', 'What is the capital of the UK?'], c.io, env)).toBe(0);
  expect(c.out).toEqual(['The capital of the UK is London.']);
  expect(c.err.at(-1)).toMatch(/^gpt-4o-mini-2024-07-18: stop; tokens in 78 \(cached 0\), out 9 \(reasoning 0\) {2}cost \$0\.0000\d+$/);
  expect((server.requests.at(-1)!.body as { messages: unknown }).messages).toEqual([{ role: 'user', content: 'What is the capital of the UK?' }]);
});

it('--json prints every part; an error part exits 1', async () => {
  server.push({ error: { status: 401 } });
  const c = capture();
  const env = { OPENAI4S_DATA_DIR: dataDir, OPENAI4S_ARK_API_KEY: 'wrong', OPENAI4S_ARK_BASE_URL: server.baseUrl };
  expect(await runCli(['llm', '--json', 'hi'], c.io, env)).toBe(1);
  expect(c.out.map((l) => JSON.parse(l) as unknown)).toMatchObject([{ type: 'error', error: { errorType: 'authentication', status: 401 } }]);
});

it('a missing key names the variables and Settings, without a request', async () => {
  const before = server.requests.length;
  const c = capture();
  expect(await runCli(['llm', '--provider', 'deepseek', 'hi'], c.io, { OPENAI4S_DATA_DIR: dataDir })).toBe(1);
  expect(c.err.join('\n')).toMatch(/OPENAI4S_DEEPSEEK_API_KEY or OPENAI4S_LLM_API_KEY.*Settings/);
  expect(server.requests.length).toBe(before);
});
