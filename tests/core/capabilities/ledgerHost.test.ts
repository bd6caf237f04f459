import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LedgerAudit } from '../../../src-main/core/capabilities/audit';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import { planWaves, ToolExecutor } from '../../../src-main/core/capabilities/executor';
import { LedgerRequestStore, LedgerRuleStore, RULES_KEY, RULES_REREAD_MS } from '../../../src-main/core/capabilities/permissions/ledgerStores';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import type { ApprovalPort } from '../../../src-main/core/capabilities/permissions/approvals';
import { ToolRegistry } from '../../../src-main/core/capabilities/registry';
import { countingTool, scriptedPort } from './support';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

function tempFile(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-host-'));
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return path.join(dir, 'ledger.sqlite3');
}

function open(file: string): Ledger {
  const l = openLedger(file);
  cleanup.push(() => l.close());
  return l;
}

function hostOver(ledger: Ledger, port: ApprovalPort, tools: ReturnType<typeof countingTool>['tool'][]) {
  const registry = new ToolRegistry();
  for (const t of tools) registry.register(t);
  const rules = new LedgerRuleStore(() => ledger);
  const requests = new LedgerRequestStore(() => ledger);
  const { policy, approvals } = createPermissionLayer({ rules, requests, port });
  const dispatcher = new HostDispatcher({ registry, policy, approvals, audit: new LedgerAudit(() => ledger, `${ledger.file}.audit.jsonl`) });
  return { dispatcher, approvals, rules, requests };
}

describe('host over the ledger', () => {
  it('a decision taken after a restart is recorded and does not run the old call', async () => {
    const file = tempFile();
    const first = open(file);
    const session = first.createSession('restart');
    const { tool, runs } = countingTool('risky', 'network', 'ask');
    // The first process asks and never hears back (the app is killed while the dialog is up).
    let asked = false;
    const hanging: ApprovalPort = { ask: () => ((asked = true), new Promise(() => {})) };
    const old = hostOver(first, hanging, [tool]);
    void old.dispatcher.dispatch('risky', { key: 'a', reason: 'fetch it' }, { origin: 'tool', sessionId: session.id, runId: null, workspace: '/x', signal: new AbortController().signal });
    await vi.waitFor(() => expect(asked).toBe(true));
    const [pending] = first.permissions.pending(session.id);
    expect(pending).toMatchObject({ method: 'risky', target: 'target-a', reason: 'fetch it', status: 'pending' });
    first.close();
    // "Kill" the first process: its ownership file names a pid that no longer exists.
    fs.writeFileSync(`${file}.owner`, '999999999');

    const second = open(file);
    expect(second.repair?.expiredPermissions).toBe(1);
    const fresh = hostOver(second, scriptedPort([]), [tool]);
    const late = fresh.approvals.decide(pending!.id, 'allow_once');
    expect(late).toMatchObject({ delivered: false, ran: false, status: 'expired' });
    expect(runs).toHaveLength(0);
    expect(second.permissions.require(pending!.id).status).toBe('expired');
    expect(fresh.requests.lateDecisions()).toMatchObject([{ requestId: pending!.id, answer: 'allow_once', statusWhenDecided: 'expired' }]);
  });

  it('a decision delivered from outside the dialog reaches the waiting call', async () => {
    const ledger = open(tempFile());
    const session = ledger.createSession('deliver');
    const { tool, runs } = countingTool('risky', 'network', 'ask');
    const host = hostOver(ledger, { ask: () => new Promise(() => {}) }, [tool]);
    const call = host.dispatcher.dispatch('risky', { key: 'a' }, { origin: 'tool', sessionId: session.id, runId: null, workspace: '/x', signal: new AbortController().signal });
    await vi.waitFor(() => expect(ledger.permissions.pending(session.id)).toHaveLength(1));
    const [pending] = ledger.permissions.pending(session.id);
    expect(host.approvals.decide(pending!.id, 'allow_once')).toEqual({ requestId: pending!.id, delivered: true });
    expect((await call).status).toBe('ok');
    expect(runs).toHaveLength(1);
    expect(ledger.permissions.require(pending!.id).status).toBe('allowed_once');
  });

  it('the batch executor records the batch before it runs, runs reads in parallel, and answers in provider order', async () => {
    const ledger = open(tempFile());
    const session = ledger.createSession('batch');
    const { run } = ledger.runs.submit(session.id, 'm1', 'hello');
    ledger.runs.start(run.id, null, null);
    const reads = { now: 0, max: 0 };
    const slow = countingTool('slow_read', 'read', 'allow', 150, reads);
    const fast = countingTool('fast_read', 'read', 'allow', 10, reads);
    const writer = countingTool('writer', 'write', 'allow', 10);
    const host = hostOver(ledger, scriptedPort([]), [slow.tool, fast.tool, writer.tool]);
    const executor = new ToolExecutor(host.dispatcher, { workspaceFor: () => '/x' });
    const call = (id: string, name: string, key: string) => ({ id, name, rawArguments: JSON.stringify({ key }), arguments: { key }, parseError: null });
    const results = await executor.executeBatch(
      [call('c1', 'slow_read', 'a'), call('c2', 'fast_read', 'b'), call('c3', 'slow_read', 'c'), call('c4', 'writer', 'a'), call('c5', 'nope', 'z')],
      { sessionId: session.id, runId: run.id, signal: new AbortController().signal, emit: () => {} },
    );
    expect(results.map((r) => r.toolCallId)).toEqual(['c1', 'c2', 'c3', 'c4', 'c5']);
    expect(results.map((r) => r.isError)).toEqual([false, false, false, false, true]);
    expect(results[0]!.content).toBe('slow_read ran on a');
    expect(reads.max).toBeGreaterThanOrEqual(2); // the reads overlapped (no timing: a loaded machine is slow, not wrong)
    const [group] = ledger.actions.listByRun(run.id);
    expect(group).toMatchObject({ kind: 'tool_batch', status: 'completed' });
    expect(group!.events.map((e) => [e.toolCallId, e.name, e.sideEffect, e.isError])).toEqual([
      ['c1', 'slow_read', 'read', false],
      ['c2', 'fast_read', 'read', false],
      ['c3', 'slow_read', 'read', false],
      ['c4', 'writer', 'write', false],
      ['c5', 'nope', 'read', true],
    ]);
    expect(group!.events[3]!.result).toMatchObject({ origin: 'tool', method: 'writer', target: 'target-a', status: 'ok', decision: { action: 'allow', by: 'default' } });
  });

  it('plans waves: reads with distinct keys together, a clash or a writer splits', () => {
    const r = (k: string) => ({ sideEffect: 'read' as const, resourceKeys: [k] });
    const w = (k: string) => ({ sideEffect: 'write' as const, resourceKeys: [k] });
    expect(planWaves([r('a'), r('b'), w('a'), r('c'), r('c')])).toEqual([[0, 1], [2], [3], [4]]);
    expect(planWaves([r('file:*'), r('file:x')])).toEqual([[0], [1]]);
  });

  it("the rules are read once per RULES_REREAD_MS: this store's own changes apply at once, another process's within the period", () => {
    const ledger = open(tempFile());
    let now = 1_000_000;
    const rules = new LedgerRuleStore(() => ledger, () => now);
    const reads = vi.spyOn(ledger.settings, 'get');
    expect(rules.listRules()).toEqual([]);
    rules.listRules();
    expect(reads).toHaveBeenCalledTimes(1);
    // Our own change is seen by the very next evaluation.
    const added = rules.addRule({ tool: 'web_fetch', target: 'https://example.org', action: 'deny' });
    expect(rules.listRules()).toEqual([added]);
    // A change written by another process (straight to the settings row) shows once the period is over.
    ledger.settings.set(RULES_KEY, []);
    expect(rules.listRules()).toEqual([added]);
    now += RULES_REREAD_MS;
    expect(rules.listRules()).toEqual([]);
    expect(rules.removeRule(added.id)).toBe(false);
  });
});
