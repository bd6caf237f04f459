import { describe, expect, it } from 'vitest';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { ApprovalAnswer, ApprovalQuestion } from '../../../src-main/core/capabilities/permissions/approvals';
import { createPermissionLayer } from '../../../src-main/core/capabilities/dispatcher';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import { safetyApprovals } from '../../../src-main/core/runner/safetyApprovals';

function layer(answers: ApprovalAnswer[]) {
  const asked: ApprovalQuestion[] = [];
  const rules = new MemoryRuleStore();
  const { policy, approvals } = createPermissionLayer({ rules, requests: new MemoryRequestStore(), port: { ask: async (q) => (asked.push(q), answers.shift() ?? 'deny') } });
  return { asked, policy, rules, port: safetyApprovals({ approvals, policy }, false) };
}

const question = (tool: string, emitted: StreamChunk[]) => ({
  sessionId: 's1',
  runId: 'r1',
  tool,
  target: 'python cell 0a1b2c3d4e5f',
  reason: 'The pre-execution review flagged one line of this Python cell:\nline 1: import socket (imports socket, a network library)',
  detail: 'line 1: import socket',
  origin: 'cell' as const,
  cellId: 'r1-review-1',
  emit: (c: StreamChunk) => emitted.push(c),
});

describe('safety questions through the app approvals', () => {
  it('asks, streams the approval card (requested, then answered) with the reason, and leaves no grant behind', async () => {
    const { asked, policy, port } = layer(['allow_once']);
    const emitted: StreamChunk[] = [];
    const answer = await port.ask(question('cell_review', emitted), new AbortController().signal);
    expect(answer).toMatchObject({ allowed: true, note: 'approved', requestId: expect.any(String) });
    expect(asked[0]).toMatchObject({ tool: 'cell_review', reason: expect.stringContaining('line 1: import socket') });
    expect(emitted.map((c) => (c as { data?: { state: string } }).data?.state)).toEqual(['requested', 'allowed_once']);
    expect(policy.sizes()).toEqual({ sessionGrants: 0, onceGrants: 0 });
  });

  it('"Allow for this session" covers the same flagged code again; a biosecurity escalation is always asked', async () => {
    const { asked, port } = layer(['allow_session', 'allow_session', 'allow_session']);
    const signal = new AbortController().signal;
    await port.ask(question('cell_review', []), signal);
    expect(await port.ask(question('cell_review', []), signal)).toEqual({ allowed: true, requestId: null, note: 'allowed for this session earlier' });
    expect(asked).toHaveLength(1);
    await port.ask(question('biosecurity_screen', []), signal);
    await port.ask(question('biosecurity_screen', []), signal);
    expect(asked).toHaveLength(3);
  });

  it('a denial says who denied: the user, or nobody in a headless run', async () => {
    const { port } = layer(['deny']);
    expect(await port.ask(question('cell_review', []), new AbortController().signal)).toMatchObject({ allowed: false, note: 'denied by the user' });
    const rules = new MemoryRuleStore();
    const { policy, approvals } = createPermissionLayer({ rules, requests: new MemoryRequestStore(), port: { ask: async () => 'deny' } });
    const headless = safetyApprovals({ approvals, policy }, true);
    expect((await headless.ask(question('cell_review', []), new AbortController().signal)).note).toMatch(/headless run.*OPENAI4S_UNATTENDED_APPROVAL=allow/);
  });
});
