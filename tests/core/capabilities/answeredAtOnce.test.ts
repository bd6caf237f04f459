import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { LedgerAudit } from '../../../src-main/core/capabilities/audit';
import { defineTool, reasonField } from '../../../src-main/core/capabilities/define';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import { createKernelHostHandler } from '../../../src-main/core/capabilities/kernelHost';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import { ToolRegistry } from '../../../src-main/core/capabilities/registry';
import { readTextFileTool } from '../../../src-main/core/capabilities/tools/fsTools';
import type { HostCallContext } from '../../../src-main/core/kernel/hostCalls';
import { openLedger, type Ledger } from '../../../src-main/core/ledger/ledger';
import { isThenable } from '../../../src-main/core/shared/maybePromise';
import { scriptedPort } from './support';

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const f of cleanup.splice(0).reverse()) f();
});

/** A cell's host-call port over a real ledger (journaled unless `full`), a workspace with one small file, and a started run. */
function cellHost(sync: 'normal' | 'full' = 'normal') {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'oai4s-at-once-'));
  const workspace = path.join(dir, 'ws');
  fs.mkdirSync(workspace);
  fs.writeFileSync(path.join(workspace, 'notes.txt'), 'benign\n');
  const file = path.join(dir, 'ledger.sqlite3');
  let ledger: Ledger = openLedger(file, { sync });
  cleanup.push(() => fs.rmSync(dir, { recursive: true, force: true }), () => ledger.close());
  const session = ledger.createSession('at once');
  const { run } = ledger.runs.submit(session.id, 'm1', 'read it');
  ledger.runs.start(run.id, null, null);
  const rules = new MemoryRuleStore();
  // A cell's method the policy asks about (as web_fetch does), answered only after the question.
  const asked = defineTool({
    name: 'risky',
    description: 'a call that asks first',
    input: z.object({ key: z.string(), reason: reasonField }).strict(),
    sideEffect: 'network',
    defaultPolicy: 'ask',
    hostMethods: ['risky'],
    resourceKeys: (a) => [`k:${a.key}`],
    target: (a) => a.key,
    execute: async (a) => ({ text: `fetched ${a.key}` }),
  });
  const registry = new ToolRegistry().register(readTextFileTool).register(asked);
  const { policy, approvals } = createPermissionLayer({ rules, requests: new MemoryRequestStore(), port: scriptedPort(['allow_once']) });
  const dispatcher = new HostDispatcher({ registry, policy, approvals, audit: new LedgerAudit(() => ledger, path.join(dir, 'host-audit.jsonl')) });
  const host = createKernelHostHandler(dispatcher, { runOf: () => run.id });
  const ctx: HostCallContext = { sessionId: session.id, language: 'python', generation: 'g1', cellId: 'c1', workspace, signal: new AbortController().signal };
  const reopen = () => {
    ledger.close();
    ledger = openLedger(file, { sync });
    return ledger;
  };
  return { ledger, host, ctx, rules, workspace, runId: run.id, reopen };
}

describe('a cell’s host call answered in the turn that read it', () => {
  it('a small read the policy allows comes back as a value, its audit record already in the journal; after a restart its row is in the ledger', () => {
    const { ledger, host, ctx, runId, reopen } = cellHost();
    const answer = host.call('read_file', { path: 'notes.txt' }, ctx);
    expect(isThenable(answer)).toBe(false);
    expect(answer).toMatchObject({ text: 'benign\n', output: { path: 'notes.txt', bytes: 7 } });
    // Durable before the answer: the journal (the OS's page cache) holds the whole call.
    const journal = fs.readFileSync(ledger.auditJournal!.file, 'utf8');
    expect(journal).toContain('"read_text_file"');
    const groups = reopen().actions.listByRun(runId);
    expect(groups).toHaveLength(1);
    expect(groups[0]).toMatchObject({ kind: 'tool_batch', status: 'completed' });
    expect(groups[0]!.events.at(-1)!.result).toMatchObject({ origin: 'cell', method: 'read_text_file', status: 'ok', cellId: 'c1' });
  });

  it('a read a rule denies throws at once with the words the model would read, and is audited as denied', () => {
    const { host, ctx, rules, runId, reopen } = cellHost();
    rules.addRule({ tool: 'read_text_file', target: 'notes.txt', action: 'deny' });
    expect(() => host.call('read_file', { path: 'notes.txt' }, ctx)).toThrow(/denied: a stored rule refuses read_text_file on notes\.txt/);
    const [group] = reopen().actions.listByRun(runId);
    expect(group!.events.at(-1)!.result).toMatchObject({ status: 'denied', decision: { action: 'deny', by: 'rule' } });
  });

  it('a missing file and a symlink out of the workspace are answered at once as errors, nothing read outside', () => {
    const { host, ctx, workspace } = cellHost();
    expect(() => host.call('read_file', { path: 'absent.txt' }, ctx)).toThrow(/read_text_file failed: .*absent\.txt/);
    fs.symlinkSync('/etc/passwd', path.join(workspace, 'link.txt'));
    expect(() => host.call('read_file', { path: 'link.txt' }, ctx)).toThrow(/symlink/);
  });

  it('a call that must wait (an approval) is a promise, and is answered once the user allowed it', async () => {
    const { host, ctx } = cellHost();
    const answer = host.call('risky', { key: 'a', reason: 'to test' }, ctx);
    expect(isThenable(answer)).toBe(true);
    await expect(answer).resolves.toMatchObject({ text: 'fetched a' });
  });

  it('without a journal (the full level) a read waits for its commit: a promise', async () => {
    const { host, ctx, runId, reopen } = cellHost('full');
    const answer = host.call('read_file', { path: 'notes.txt' }, ctx);
    expect(isThenable(answer)).toBe(true);
    await expect(answer).resolves.toMatchObject({ text: 'benign\n' });
    expect(reopen().actions.listByRun(runId)[0]).toMatchObject({ status: 'completed' });
  });

  it('a file over the whole-read size streams the asked range (a promise), the same as before', async () => {
    const { host, ctx, workspace } = cellHost();
    const line = `${'x'.repeat(99)}\n`;
    fs.writeFileSync(path.join(workspace, 'big.txt'), line.repeat(50_000)); // 5 MB, over the 4 MB whole read
    const answer = host.call('read_file', { path: 'big.txt', start_line: 3, max_lines: 2 }, ctx);
    expect(isThenable(answer)).toBe(true);
    const { text } = (await answer) as { text: string };
    expect(text.split('\n').slice(0, 2)).toEqual(['x'.repeat(99), 'x'.repeat(99)]);
    expect(text).toContain('continue with start_line=5');
  });
});
