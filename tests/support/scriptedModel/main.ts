/**
 * Runs a scripted model for demos and manual checks:
 *
 *   npx tsx tests/support/scriptedModel/main.ts [--loop] <step>...
 *
 * Each <step> is a JSON file holding one ScriptStep or an array of them, or the
 * name of a recorded stream in tests/fixtures/llm-streams (e.g.
 * `openai-chat-gpt4o-mini-toolcall.raw.sse`). It prints the base URL and the
 * variable to point a provider at it, logs each request, and runs until Ctrl-C.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ScriptStep } from '../../../src-main/core/llm/scripted/script';
import { startScriptedModel } from '../../../src-main/core/llm/scripted/server';
import { LLM_STREAM_FIXTURES, transcriptStep } from './transcripts';

function loadSteps(arg: string): ScriptStep[] {
  if (fs.existsSync(path.join(LLM_STREAM_FIXTURES, arg))) return [transcriptStep(arg)];
  const parsed = JSON.parse(fs.readFileSync(arg, 'utf8')) as ScriptStep | ScriptStep[];
  return Array.isArray(parsed) ? parsed : [parsed];
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const loop = args.includes('--loop');
  const files = args.filter((a) => a !== '--loop');
  if (files.length === 0) {
    console.error('usage: tsx tests/support/scriptedModel/main.ts [--loop] <script.json | recorded-stream-name>...');
    process.exit(2);
  }
  const server = await startScriptedModel(files.flatMap(loadSteps), { loop });
  console.log(`scripted model at ${server.baseUrl} (${server.remaining()} steps${loop ? ', looping' : ''})`);
  console.log(`  OPENAI4S_OPENAI_BASE_URL=${server.baseUrl} OPENAI4S_OPENAI_API_KEY=scripted OPENAI4S_PROVIDER=openai`);
  let seen = 0;
  setInterval(() => {
    for (; seen < server.requests.length; seen++) {
      const r = server.requests[seen]!;
      const model = (r.body as { model?: unknown } | null)?.model;
      console.log(`${new Date(r.receivedAt).toISOString()} ${r.method} ${r.path}${typeof model === 'string' ? ` model=${model}` : ''}`);
    }
  }, 200);
  process.on('SIGINT', () => void server.close().then(() => process.exit(0)));
}

void main();
