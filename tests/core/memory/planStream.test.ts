import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ThinkingStepData } from '../../../src-preload/contract/dataParts';
import { fold } from '../../../src-preload/contract/fold';
import { runCli } from '../../../src-main/cli/main';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { validAnswer } from '../../support/mockModel';
import { readWithAiSdk, validateDataParts } from '../contract/uiStreamSupport';

/**
 * Issue 19, the visible plan and memory, end to end through the CLI and the scripted model:
 * the plan the agent writes and moves, and what the engine is doing, stream as
 * data-thinking-step parts that the `ai` package reads whole; memories made by a tool and
 * by a cell are in the ledger (a key refused), in the next run's request, and in the export.
 */

let dir: string;
let server: ScriptedModel;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-plan-'));
});
afterEach(async () => {
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const KEY = 'sk-proj-0123456789abcdefghijklmnop';
const CELL = ['```python', 'm = host.remember(text="Composition counts exclude the signal peptide.")', 'print("remembered", m)', '```'].join('\n');

function env() {
  return { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_OPENAI_BASE_URL: server.baseUrl, OPENAI4S_OPENAI_API_KEY: 'sk-test-plan', OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_UNATTENDED_APPROVAL: '' };
}

async function cli(args: string[]) {
  let stdout = '';
  let stderr = '';
  const code = await runCli(args, { out: (t) => (stdout += `${t}\n`), err: (t) => (stderr += `${t}\n`), write: (t) => (stdout += t) }, env());
  return { code, stdout, stderr };
}

const systemOf = (body: unknown): string => {
  const messages = (body as { messages?: { role: string; content?: unknown }[] }).messages ?? [];
  return messages.filter((m) => m.role === 'system').map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content))).join('\n');
};

describe('the visible plan and memory', () => {
  it('streams plan and activity steps the ai package reads whole; memories reach the next request and the export', async () => {
    server = await startScriptedModel([
      { reply: [{ toolCall: { name: 'find_tools', arguments: { query: 'plan remember' } } }] },
      {
        reply: [
          {
            toolCall: {
              name: 'write_todos',
              arguments: {
                todos: [
                  { id: 'search', title: 'Find the insulin record', status: 'in_progress' },
                  { id: 'compute', title: 'Compute the composition' },
                  { id: 'compute.count', title: 'Count residues', parent: 'compute' },
                ],
              },
            },
          },
        ],
      },
      {
        reply: [
          { toolCall: { name: 'list_dir', arguments: { path: '.' } } },
          { toolCall: { name: 'remember', arguments: { text: 'The user studies human insulin (P01308).', scope: 'data_root' } } },
          { toolCall: { name: 'remember', arguments: { text: `my OpenAI key is ${KEY}` } } },
        ],
      },
      {
        reply: [
          { toolCall: { name: 'update_plan_step', arguments: { id: 'search', status: 'completed', note: 'P01308' } } },
          { toolCall: { name: 'update_plan_step', arguments: { id: 'compute', status: 'in_progress' } } },
        ],
      },
      { reply: [{ text: `Counting.\n${CELL}\n` }] },
      { reply: [{ toolCall: { name: 'update_plan_step', arguments: { id: 'compute', status: 'completed' } } }] },
      { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
      // The second run: its first request is checked for the standing context.
      { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
    ]);

    const first = await cli(['run', 'Composition of human insulin', '--provider', 'openai', '--stream', 'ui']);
    expect(first.stderr).toBe('');
    expect(first.code).toBe(0);

    // Read whole by the ai package, every data part valid by the contract's schemas.
    const { message, errors } = await readWithAiSdk(first.stdout);
    expect(errors).toEqual([]);
    expect(validateDataParts(message!.parts)).toEqual([]);
    const steps = message!.parts.filter((p) => p.type === 'data-thinking-step').map((p) => (p as { data: ThinkingStepData }).data);
    const byId = new Map(steps.map((s) => [s.id, s]));

    // The plan: a tree, each step's final state and times.
    expect(byId.get('plan-search')).toMatchObject({ kind: 'plan', status: 'completed', items: ['P01308'] });
    expect(byId.get('plan-compute')).toMatchObject({ kind: 'plan', status: 'completed' });
    expect(byId.get('plan-compute.count')).toMatchObject({ kind: 'plan', status: 'pending', parentId: 'plan-compute' });
    for (const id of ['plan-search', 'plan-compute']) {
      const s = byId.get(id)!;
      expect(Date.parse(s.finishedAt!)).toBeGreaterThanOrEqual(Date.parse(s.startedAt!));
    }

    // What the engine did, nested under the plan step that was running.
    const activities = steps.filter((s) => s.kind === 'activity');
    expect(activities.find((s) => s.title === 'Listing .')).toMatchObject({ status: 'completed', parentId: 'plan-search' });
    expect(activities.filter((s) => s.title.startsWith('Remembering "')).map((s) => s.status).sort()).toEqual(['completed', 'failed']);
    const cellPart = message!.parts.find((p) => p.type === 'data-cell') as { data: { stdout?: string; stderr?: string; error?: unknown } };
    expect(cellPart.data.error ?? null, JSON.stringify(cellPart.data)).toBeNull();
    expect(cellPart.data.stdout).toMatch(/remembered .*mem_[0-9a-f]{16}/);
    expect(activities.find((s) => s.title === 'Python cell 1')).toMatchObject({ status: 'completed', parentId: 'plan-compute' });
    expect(activities.find((s) => s.title === 'Writing the answer')).toMatchObject({ status: 'completed' });
    expect(activities.every((s) => s.startedAt && s.finishedAt)).toBe(true);

    // Memories: the tool's and the cell's, origin agent; the key refused and never stored.
    const ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
    let sessionId: string;
    try {
      const [session] = ledger.sessions.list();
      sessionId = session!.id;
      expect(ledger.memory.visible(sessionId).map((m) => [m.text, m.scope, m.origin])).toEqual([
        ['The user studies human insulin (P01308).', 'data_root', 'agent'],
        ['Composition counts exclude the signal peptide.', 'session', 'agent'],
      ]);
      expect(JSON.stringify(ledger.db.prepare('SELECT * FROM memory_events').all())).not.toContain(KEY);
      // The stored stream folds to the same message the ai package read.
      const folded = fold(ledger.events.readFrom(sessionId).map((e) => e.chunk));
      // Less the failed tool call's errorCode: the app's extension of the chunk, which the ai package's reader does not keep.
      const withoutErrorCode = JSON.stringify(folded.at(-1), (key, value: unknown) => (key === 'errorCode' ? undefined : value));
      expect(JSON.parse(JSON.stringify(message))).toEqual(JSON.parse(withoutErrorCode));
    } finally {
      ledger.close();
    }
    const refused = message!.parts.find((p) => p.type === 'tool-remember' && (p as { state: string }).state === 'output-error') as { errorText: string };
    expect(refused.errorText).toMatch(/secret/);

    // Standing context is rebuilt before every request: the memory made in turn 3 and the plan
    // written in turn 2 are in the very next request of the same run, not only in later runs.
    expect(systemOf(server.requests[1]!.body)).not.toContain('## Your plan');
    expect(systemOf(server.requests[2]!.body)).toContain('[>] search. Find the insulin record');
    expect(systemOf(server.requests[2]!.body)).not.toContain('The user studies human insulin');
    expect(systemOf(server.requests[3]!.body)).toContain('The user studies human insulin (P01308).');
    expect(systemOf(server.requests[4]!.body)).toContain('[x] search. Find the insulin record');

    // The next run's request carries the memories and the plan (standing context).
    const second = await cli(['run', 'And the B chain?', '--provider', 'openai', '--session', sessionId]);
    expect(second.code).toBe(0);
    const system = systemOf(server.requests.at(-1)!.body);
    expect(system).toContain('The user studies human insulin (P01308).');
    expect(system).toContain('Composition counts exclude the signal peptide.');
    expect(system).toContain('[x] search. Find the insulin record');
    expect(system).toContain('  [ ] compute.count. Count residues');

    // The export carries the session's memory events and plan, not the data root's memories.
    // Outside the data root: the CLI never writes into the app’s data folder.
    const out = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-plan-out-')), 'export.zip');
    const exported = await cli(['export', sessionId, '-o', out, '--unsigned']);
    expect(exported.code).toBe(0);
    const verified = await cli(['verify', out]);
    expect(verified.code, verified.stderr).toBe(0);
    const files = unzipSync(fs.readFileSync(out));
    const events = strFromU8(files['ledger/memory_events.jsonl']!).trim().split('\n').map((l) => JSON.parse(l) as { text: string; scope: string });
    expect(events.map((e) => [e.text, e.scope])).toEqual([['Composition counts exclude the signal peptide.', 'session']]);
    expect((JSON.parse(strFromU8(files['ledger/plan.json']!)) as ThinkingStepData[]).map((s) => s.id)).toEqual(['plan-search', 'plan-compute', 'plan-compute.count']);
  }, 120_000);
});
