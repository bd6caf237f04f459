import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThinkingStepData } from '../../../src-preload/contract/dataParts';
import { runCli } from '../../../src-main/cli/main';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { validAnswer } from '../../support/mockModel';
import { readWithAiSdk, validateDataParts } from '../contract/uiStreamSupport';

/**
 * Issue 19: the engine says what it is doing even inside a cell: a cell's host call that
 * needs the user's approval is a "Waiting for your approval" step under the running cell
 * (the runner sends a cell's host-call chunks through the engine). Headless, the request
 * is denied at once, so the step ends failed with the answer.
 */
let dir: string;
let server: ScriptedModel;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-cellwait-'));
});
afterEach(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const CELL = ['```python', 'try:', '    host.web_fetch(url="http://127.0.0.1:9/page", reason="read the page")', 'except Exception as error:', '    print("refused:", error)', '```'].join('\n');

describe('a cell waiting for approval', () => {
  it('is a step under the running cell, ended with the answer it got', async () => {
    server = await startScriptedModel([{ reply: [{ text: `Fetching in a cell.\n${CELL}\n` }] }, { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] }]);
    let stdout = '';
    let stderr = '';
    const code = await runCli(
      ['run', 'Read the page', '--provider', 'openai', '--stream', 'ui'],
      { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`), write: (t) => (stdout += t) },
      { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_OPENAI_BASE_URL: server.baseUrl, OPENAI4S_OPENAI_API_KEY: 'sk-test-cellwait', OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNATTENDED_APPROVAL: '' },
    );
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const { message, errors } = await readWithAiSdk(stdout);
    expect(errors).toEqual([]);
    expect(validateDataParts(message!.parts)).toEqual([]);
    const steps = message!.parts.filter((p) => p.type === 'data-thinking-step').map((p) => (p as { data: ThinkingStepData }).data);
    const cell = steps.find((s) => s.title === 'Python cell 1')!;
    expect(cell).toMatchObject({ status: 'completed', kind: 'activity' });
    const wait = steps.find((s) => s.title.startsWith('Waiting for your approval'));
    expect(wait).toMatchObject({ title: 'Waiting for your approval: web_fetch → http://127.0.0.1:9', status: 'failed', parentId: cell.id, items: ['Answer: denied'] });
    const cellPart = message!.parts.find((p) => p.type === 'data-cell') as { data: { stdout: string } };
    expect(cellPart.data.stdout).toMatch(/refused:/);
  }, 120_000);
});
