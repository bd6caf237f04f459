import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { afterEach, describe, expect, it } from 'vitest';
import { LedgerAudit } from '../../../src-main/core/capabilities/audit';
import { defineTool } from '../../../src-main/core/capabilities/define';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import { ToolExecutor } from '../../../src-main/core/capabilities/executor';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import { ToolRegistry } from '../../../src-main/core/capabilities/registry';
import { runEngine } from '../../../src-main/core/engine/loop';
import type { EnginePorts } from '../../../src-main/core/engine/ports';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { RecordingMockModel, finish, toolCall, validAnswer } from '../../support/mockModel';
import { countingTool, scriptedPort } from './support';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

/** A ledger with one started run, and a host over it whose audit is the ledger's. */
function ledgerHost() {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-audit-'));
  const ledger: Ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }), () => ledger.close());
  const session = ledger.createSession('audit');
  const { run } = ledger.runs.submit(session.id, 'm1', 'hello');
  ledger.runs.start(run.id, null, null);
  const ran = countingTool('reader', 'read', 'allow');
  const broken = defineTool({
    name: 'broken',
    description: 'a tool whose execution fails',
    input: z.object({ key: z.string() }).strict(),
    sideEffect: 'write',
    defaultPolicy: 'allow',
    resourceKeys: (a) => [`k:${a.key}`],
    target: (a) => a.key,
    execute: async () => {
      throw new Error('the disk is full');
    },
  });
  const registry = new ToolRegistry().register(ran.tool).register(broken);
  const { policy, approvals } = createPermissionLayer({ rules: new MemoryRuleStore(), requests: new MemoryRequestStore(), port: scriptedPort([]) });
  const dispatcher = new HostDispatcher({ registry, policy, approvals, audit: new LedgerAudit(() => ledger, path.join(dir, 'host-audit.jsonl')) });
  const executor = new ToolExecutor(dispatcher, { workspaceFor: () => dir });
  return { ledger, sessionId: session.id, runId: run.id, executor, runs: ran.runs };
}

const call = (id: string, name: string, args: unknown) => ({ id, name, rawArguments: JSON.stringify(args), arguments: args, parseError: null });

describe('the audit records the real outcome', () => {
  it('a batch in which a tool ran and failed is failed; one whose calls all succeeded is completed', async () => {
    const { ledger, sessionId, runId, executor } = ledgerHost();
    const ctx = { sessionId, runId, signal: new AbortController().signal, emit: () => {} };
    await executor.executeBatch([call('a', 'reader', { key: 'x' })], { ...ctx, turn: 1 });
    const results = await executor.executeBatch([call('b', 'reader', { key: 'y' }), call('c', 'broken', { key: 'z' })], { ...ctx, turn: 2 });
    expect(results.map((r) => r.isError)).toEqual([false, true]);
    const groups = ledger.actions.listByRun(runId);
    expect(groups.map((g) => [g.turn, g.status])).toEqual([
      [1, 'completed'],
      [2, 'failed'],
    ]);
    expect(groups[1]!.events[1]!.result).toMatchObject({ method: 'broken', status: 'error', text: 'broken failed: the disk is full' });
  });

  it('calls whose arguments are not JSON, or not what the tool takes, are audited as invalid_arguments and never run', async () => {
    const { ledger, sessionId, runId, executor, runs } = ledgerHost();
    const model = new RecordingMockModel([
      [...toolCall('bad-json', 'reader', '{"key": "a'), ...toolCall('bad-shape', 'reader', { key: 3 }), finish('tool-calls')],
      [...toolCall('f', 'finalize_response', validAnswer), finish()],
    ]);
    const ports: EnginePorts = {
      model,
      executor,
      kernel: { executeCell: async () => ({ ok: false, summary: 'no kernel here' }) },
      context: { prepare: (h) => [...h] },
      sink: { emit: () => {} },
      evidence: { missing: () => [] },
    };
    const result = await runEngine(ports, { sessionId, runId, system: 'sys', tools: [], history: [{ role: 'user', content: 'read it' }], signal: new AbortController().signal });
    expect(result.status).toBe('completed');
    expect(runs).toEqual([]);
    const events = ledger.actions.listByRun(runId).flatMap((g) => g.events);
    const byCall = new Map(events.map((e) => [e.toolCallId, e]));
    expect(byCall.get('bad-json')).toMatchObject({ name: 'reader', rawArguments: '{"key": "a', parseError: expect.stringMatching(/JSON/), isError: true });
    expect(byCall.get('bad-json')!.result).toMatchObject({ status: 'invalid_arguments', text: expect.stringMatching(/^Not executed: the arguments are not valid JSON/) });
    expect(byCall.get('bad-shape')).toMatchObject({ name: 'reader', parseError: expect.stringMatching(/invalid arguments for reader: key/), isError: true });
    expect(byCall.get('bad-shape')!.result).toMatchObject({ status: 'invalid_arguments' });
    // Nothing ran, so nothing failed: the groups are completed, each row saying why its call did not run.
    expect(ledger.actions.listByRun(runId).map((g) => g.status)).toEqual(['completed', 'completed']);
  });
});
