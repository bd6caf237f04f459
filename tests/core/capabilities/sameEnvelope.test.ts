import { afterAll, describe, expect, it } from 'vitest';
import { createKernelHostHandler } from '../../../src-main/core/capabilities/kernelHost';
import { ToolExecutor } from '../../../src-main/core/capabilities/executor';
import { createToolRegistry } from '../../../src-main/core/capabilities/builtin';
import { MemoryAudit } from '../../../src-main/core/capabilities/audit';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { makeSupervisor } from '../kernel/helpers';
import { scriptedPort } from './support';

// One dispatcher, reached by a native tool call and by a real Python cell under the real bwrap.
const port = scriptedPort([], 'allow_once');
const audit = new MemoryAudit();
const registry = createToolRegistry({ env: {} });
const { policy, approvals } = createPermissionLayer({ rules: new MemoryRuleStore(), requests: new MemoryRequestStore(), port });
const dispatcher = new HostDispatcher({ registry, policy, approvals, audit });
const cellChunks: StreamChunk[] = [];
const { sup } = makeSupervisor({ host: createKernelHostHandler(dispatcher, { runOf: () => 'run-1', emitOf: () => (c) => cellChunks.push(c) }) });
afterAll(() => sup.close());

const URL = 'http://169.254.169.254/latest/meta-data/';
const REASON = 'read the instance metadata';

describe('one envelope for a tool call and a cell host call', () => {
  it('the same web_fetch asks the same question and leaves the same audit fields', async () => {
    const toolChunks: StreamChunk[] = [];
    const executor = new ToolExecutor(dispatcher, { workspaceFor: () => sup.workspaceFor('same-1') });
    const [toolResult] = await executor.executeBatch(
      [{ id: 'call-1', name: 'web_fetch', rawArguments: JSON.stringify({ url: URL, reason: REASON }), arguments: { url: URL, reason: REASON }, parseError: null }],
      { sessionId: 'same-1', runId: 'run-1', signal: new AbortController().signal, emit: (c) => toolChunks.push(c) },
    );
    const cell = await sup.execute(
      'same-1',
      'python',
      `try:\n    host.web_fetch(${JSON.stringify(URL)}, reason=${JSON.stringify(REASON)})\nexcept HostError as e:\n    print("HostError:", e)`,
    );
    expect(cell.status).toBe('ok');

    // The question.
    expect(port.questions).toHaveLength(2);
    const [fromTool, fromCell] = port.questions.map(({ requestId: _id, origin, ...q }) => ({ origin, q }));
    expect(fromTool!.origin).toBe('tool');
    expect(fromCell!.origin).toBe('cell');
    expect(fromCell!.q).toEqual(fromTool!.q);
    expect(fromTool!.q).toMatchObject({ tool: 'web_fetch', target: 'http://169.254.169.254', reason: REASON, sideEffect: 'network' });

    // The answer: refused by the egress guard, in the same words, to the model and to the cell.
    expect(toolResult!.isError).toBe(true);
    expect(toolResult!.content).toMatch(/Refused to fetch http:\/\/169\.254\.169\.254\/latest\/meta-data\/: 169\.254\.169\.254 is a link-local address/);
    // The worker SDK prefixes the method name to a host error.
    expect(cell.stdout).toBe(`HostError: web_fetch: ${toolResult!.content}\n`);

    // The audit.
    expect(audit.records).toHaveLength(2);
    const strip = ({ call, outcome }: (typeof audit.records)[number]) => {
      const { origin: _o, toolCallId: _t, cellId: _c, generation: _g, rawArguments: _r, ...c } = call;
      const { durationMs: _d, decision, ...o } = outcome!;
      const { requestId: _q, ...d } = decision;
      return { c, o, d };
    };
    expect(strip(audit.records[1]!)).toEqual(strip(audit.records[0]!));
    expect(audit.records[0]!.call).toMatchObject({ origin: 'tool', toolCallId: 'call-1', method: 'web_fetch', target: 'http://169.254.169.254', sideEffect: 'network' });
    expect(audit.records[1]!.call).toMatchObject({ origin: 'cell', cellId: cell.cellId, generation: cell.generation, runId: 'run-1' });
    expect(audit.records[0]!.outcome).toMatchObject({ status: 'refused', decision: { action: 'allow', by: 'user', answer: 'allow_once' } });

    // The activity: an approval asked and answered, and the call's own chunk, for both.
    for (const chunks of [toolChunks, cellChunks]) {
      const approvalStates = chunks.filter((c) => c.type === 'data-approval').map((c) => (c as { data: { state: string } }).data.state);
      expect(approvalStates).toEqual(['requested', 'allowed_once']);
      expect(chunks.find((c) => c.type === 'data-host-call')).toMatchObject({ data: { method: 'web_fetch', status: 'refused', target: 'http://169.254.169.254' } });
    }
    expect(toolChunks[0]).toMatchObject({ type: 'tool-approval-request', toolCallId: 'call-1' });
  });
});

describe('the kernel host port', () => {
  it('serves only its own local methods: an Object property name goes to the dispatcher, which does not know it', async () => {
    const handler = createKernelHostHandler(dispatcher, { local: { submit_output: () => ({ submitted: true }) } });
    const ctx = { sessionId: 'proto', cellId: 'c1', generation: 'g1', language: 'python' as const, workspace: sup.workspaceFor('proto') };
    expect(await handler.call('submit_output', {}, ctx)).toEqual({ submitted: true });
    for (const method of ['constructor', 'toString', 'hasOwnProperty', '__proto__']) {
      await expect(Promise.resolve().then(() => handler.call(method, {}, ctx))).rejects.toThrow(/unknown host method/);
    }
  });
});
