import { afterAll, describe, expect, it, vi } from 'vitest';
import { createKernelHostHandler } from '../../../src-main/core/capabilities/kernelHost';
import { MemoryAudit } from '../../../src-main/core/capabilities/audit';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import type { ApprovalPort } from '../../../src-main/core/capabilities/permissions/approvals';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import { createToolRegistry } from '../../../src-main/core/capabilities/builtin';
import { makeSupervisor } from '../kernel/helpers';

// An approval nobody answers: the cell waits in host.web_fetch until it is interrupted.
const asked: AbortSignal[] = [];
const silent: ApprovalPort = {
  ask: (_q, signal) => {
    asked.push(signal);
    return new Promise(() => {});
  },
};
const requests = new MemoryRequestStore();
const { policy, approvals } = createPermissionLayer({ rules: new MemoryRuleStore(), requests, port: silent });
const audit = new MemoryAudit();
const dispatcher = new HostDispatcher({ registry: createToolRegistry({ env: {} }), policy, approvals, audit });
const { sup } = makeSupervisor({ host: createKernelHostHandler(dispatcher, {}) });
afterAll(() => sup.close());

describe('a host call of an interrupted cell', () => {
  it('stops waiting for its approval when the cell is interrupted, and never runs', async () => {
    const cell = sup.execute('cancel-1', 'python', 'host.web_fetch(url="https://example.org/", reason="look")');
    for (let i = 0; i < 500 && asked.length === 0; i++) await new Promise((r) => setTimeout(r, 10));
    expect(asked).toHaveLength(1);
    expect(asked[0]!.aborted).toBe(false);
    expect(sup.interrupt('cancel-1', 'python')).toBe(true);
    const result = await cell;
    expect(result.status).toBe('interrupted');
    // The approval question was withdrawn with the cell, and the call was recorded as not run.
    expect(asked[0]!.aborted).toBe(true);
    await vi.waitFor(() => expect(audit.records.at(-1)?.outcome).toMatchObject({ status: 'denied' }), { timeout: 10_000 });
    expect(audit.records.at(-1)!.outcome!.text).toMatch(/cancelled while waiting for approval/);
  }, 60_000);

  it('an R cell too: interrupted, the question withdrawn, the call recorded as not run', async () => {
    const before = asked.length;
    const cell = sup.execute('cancel-r', 'r', 'host_call("web_fetch", url = "https://example.org/", reason = "look")');
    for (let i = 0; i < 1000 && asked.length === before; i++) await new Promise((r) => setTimeout(r, 10));
    expect(asked).toHaveLength(before + 1);
    expect(sup.interrupt('cancel-r', 'r')).toBe(true);
    const result = await cell;
    expect(result.status).toBe('interrupted');
    expect(asked.at(-1)!.aborted).toBe(true);
    await vi.waitFor(() => expect(audit.records.at(-1)?.outcome).toMatchObject({ status: 'denied' }), { timeout: 10_000 });
  }, 60_000);
});
