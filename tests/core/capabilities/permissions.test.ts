import { describe, expect, it } from 'vitest';
import { headlessApprovals, NO_UI_DENIAL } from '../../../src-main/core/capabilities/permissions/approvals';
import { createPermissionLayer, HostDispatcher } from '../../../src-main/core/capabilities/dispatcher';
import { MemoryAudit } from '../../../src-main/core/capabilities/audit';
import { MemoryRequestStore, MemoryRuleStore } from '../../../src-main/core/capabilities/permissions/memoryStores';
import { callKey, ONCE_GRANT_TTL_MS, PermissionPolicy, targetMatches } from '../../../src-main/core/capabilities/permissions/permissions';
import { ToolRegistry } from '../../../src-main/core/capabilities/registry';
import { countingTool, ctx, memoryDispatcher, scriptedPort } from './support';

describe('permissions and approvals through the dispatcher', () => {
  it('headless: denied unless OPENAI4S_UNATTENDED_APPROVAL=allow; the model is told why and how', async () => {
    for (const [env, expected] of [
      [{}, 'denied'],
      [{ OPENAI4S_UNATTENDED_APPROVAL: 'yes' }, 'denied'],
      [{ OPENAI4S_UNATTENDED_APPROVAL: 'allow' }, 'ok'],
    ] as const) {
      const { tool, runs } = countingTool('risky', 'network', 'ask');
      const registry = new ToolRegistry().register(tool);
      const requests = new MemoryRequestStore();
      const { policy, approvals } = createPermissionLayer({ rules: new MemoryRuleStore(), requests, port: headlessApprovals(env) });
      const d = new HostDispatcher({ registry, policy, approvals, audit: new MemoryAudit(), denialNote: NO_UI_DENIAL });
      const r = await d.dispatch('risky', { key: 'a' }, ctx());
      expect(r.status, JSON.stringify(env)).toBe(expected);
      expect(runs).toHaveLength(expected === 'ok' ? 1 : 0);
      if (expected === 'denied') expect(r.text).toMatch(/no one was there to approve it.*OPENAI4S_UNATTENDED_APPROVAL=allow/);
      // The request and its decision are persisted either way.
      expect([...requests.requests.values()].map((q) => q.status)).toEqual([expected === 'ok' ? 'allowed_once' : 'denied']);
    }
  });

  it('allow once: runs that exact call once; the same call later is asked again', async () => {
    const { tool, runs } = countingTool('risky', 'network', 'ask');
    const port = scriptedPort(['allow_once'], 'deny');
    const { dispatcher } = memoryDispatcher(port, [tool]);
    expect((await dispatcher.dispatch('risky', { key: 'a', reason: 'need the page' }, ctx())).status).toBe('ok');
    expect((await dispatcher.dispatch('risky', { key: 'a' }, ctx())).status).toBe('denied');
    expect(runs).toHaveLength(1);
    expect(port.questions).toHaveLength(2);
    expect(port.questions[0]).toMatchObject({ tool: 'risky', target: 'target-a', reason: 'need the page', sideEffect: 'network', detail: '{"key":"a"}' });
    expect(port.questions[1]!.reason).toBe('');
  });

  it('a once-grant is for the exact call, expires after 15 minutes and is consumed atomically', () => {
    let now = 1_000_000;
    const policy = new PermissionPolicy(new MemoryRuleStore(), () => now);
    const k = callKey('s1', 'web_fetch', { url: 'https://a.example/', max_chars: 10 });
    expect(callKey('s1', 'web_fetch', { max_chars: 10, url: 'https://a.example/' })).toBe(k);
    expect(callKey('s1', 'web_fetch', { url: 'https://a.example/other' })).not.toBe(k);
    policy.grantOnce(k);
    const input = { sessionId: 's1', tool: 'web_fetch', target: 'https://a.example', defaultAction: 'ask' as const };
    expect(policy.evaluate({ ...input, callKey: callKey('s1', 'web_fetch', { url: 'https://a.example/other' }) }).action).toBe('ask');
    // Two identical calls race for one grant: exactly one gets it.
    expect([policy.consumeOnce(k), policy.consumeOnce(k)]).toEqual([true, false]);
    policy.grantOnce(k);
    now += ONCE_GRANT_TTL_MS + 1;
    expect(policy.evaluate({ ...input, callKey: k })).toEqual({ action: 'ask', by: 'default' });
  });

  it('grants are released: unused once-grants when they expire, a session\'s grants when it ends (issue 16)', () => {
    let now = 1_000_000;
    const policy = new PermissionPolicy(new MemoryRuleStore(), () => now);
    policy.grantOnce(callKey('s1', 'web_fetch', { url: 'https://a.example/' }), 's1');
    policy.grantOnce(callKey('s2', 'web_fetch', { url: 'https://a.example/' }), 's2');
    policy.grantSession('s1', 'web_fetch', 'https://a.example');
    expect(policy.sizes()).toEqual({ sessionGrants: 1, onceGrants: 2 });
    policy.endSession('s1');
    expect(policy.sizes()).toEqual({ sessionGrants: 0, onceGrants: 1 });
    // s2's grant is never used: it goes once it has expired, at the next grant.
    now += ONCE_GRANT_TTL_MS + 1;
    policy.grantOnce(callKey('s3', 'web_fetch', { url: 'https://b.example/' }), 's3');
    expect(policy.sizes()).toEqual({ sessionGrants: 0, onceGrants: 1 });
  });

  it('session scope: later calls on the same tool and target run without asking, in that session only', async () => {
    const { tool, runs } = countingTool('risky', 'network', 'ask');
    const port = scriptedPort(['allow_session'], 'deny');
    const { dispatcher } = memoryDispatcher(port, [tool]);
    expect((await dispatcher.dispatch('risky', { key: 'a' }, ctx())).status).toBe('ok');
    const again = await dispatcher.dispatch('risky', { key: 'a' }, ctx());
    expect(again).toMatchObject({ status: 'ok', decision: { action: 'allow', by: 'session-grant' } });
    expect((await dispatcher.dispatch('risky', { key: 'b' }, ctx())).status).toBe('denied'); // other target
    expect((await dispatcher.dispatch('risky', { key: 'a' }, ctx({ sessionId: 's2' }))).status).toBe('denied'); // other session
    expect(runs).toHaveLength(2);
    expect(port.questions).toHaveLength(3);
  });

  it('always: a stored rule (listed, and asked again once revoked); deny rules beat everything', async () => {
    const { tool, runs } = countingTool('risky', 'network', 'ask');
    const port = scriptedPort(['allow_always'], 'deny');
    const { dispatcher, rules, policy } = memoryDispatcher(port, [tool]);
    await dispatcher.dispatch('risky', { key: 'a' }, ctx());
    const stored = rules.listRules();
    expect(stored).toMatchObject([{ tool: 'risky', target: 'target-a', action: 'allow' }]);
    expect((await dispatcher.dispatch('risky', { key: 'a' }, ctx({ sessionId: 'other' }))).decision).toMatchObject({ action: 'allow', by: 'rule', ruleId: stored[0]!.id });
    rules.removeRule(stored[0]!.id);
    expect((await dispatcher.dispatch('risky', { key: 'a' }, ctx({ sessionId: 'third' }))).status).toBe('denied');
    expect(runs).toHaveLength(2);

    rules.addRule({ tool: '*', target: 'target-*', action: 'deny' });
    policy.grantSession('s1', 'risky', 'target-a');
    const denied = await dispatcher.dispatch('risky', { key: 'a' }, ctx());
    expect(denied).toMatchObject({ status: 'denied', decision: { by: 'rule' } });
    expect(denied.text).toMatch(/stored rule refuses/);
  });

  it('unknown tools, bad arguments and the forbidden names are answered, never run', async () => {
    const { tool } = countingTool('risky', 'read', 'allow');
    const { dispatcher, registry } = memoryDispatcher(scriptedPort([]), [tool]);
    expect((await dispatcher.dispatch('nope', {}, ctx())).text).toMatch(/Unknown tool "nope". The tools are: risky, finalize_response/);
    expect((await dispatcher.dispatch('bash', {}, ctx())).text).toMatch(/no bash tool/);
    expect((await dispatcher.dispatch('risky', { key: 3 }, ctx())).text).toMatch(/invalid arguments for risky: key:/);
    for (const name of ['bash', 'submit_output', 'finalize_response']) {
      expect(() => registry.register(countingTool(name, 'read', 'allow').tool)).toThrow(new RegExp(name));
    }
  });

  it('targets match exactly or by * pattern', () => {
    expect(targetMatches('https://*.ebi.ac.uk', 'https://www.ebi.ac.uk')).toBe(true);
    expect(targetMatches('https://*.ebi.ac.uk', 'https://www.ebi.ac.uk.evil.example')).toBe(false);
    expect(targetMatches('data/*', 'data/x.csv')).toBe(true);
    expect(targetMatches('data/x.csv', 'data/x.csvx')).toBe(false);
  });
});

describe('"always" answers leave only the stored rule', () => {
  it('deny always never grants the session; once the deny rule is revoked, the same session is asked again', async () => {
    const { tool, runs } = countingTool('risky', 'network', 'ask');
    const port = scriptedPort(['deny_always'], 'deny');
    const { dispatcher, rules } = memoryDispatcher(port, [tool]);
    expect((await dispatcher.dispatch('risky', { key: 'a' }, ctx())).status).toBe('denied');
    const [rule] = rules.listRules();
    expect(rule).toMatchObject({ tool: 'risky', target: 'target-a', action: 'deny' });
    rules.removeRule(rule!.id);
    const after = await dispatcher.dispatch('risky', { key: 'a' }, ctx());
    expect(after).toMatchObject({ status: 'denied', decision: { by: 'user' } });
    expect(port.questions).toHaveLength(2);
    expect(runs).toHaveLength(0);
  });

  it('allow always, revoked in Settings: the session that answered is asked again too', async () => {
    const { tool, runs } = countingTool('risky', 'network', 'ask');
    const port = scriptedPort(['allow_always'], 'deny');
    const { dispatcher, rules } = memoryDispatcher(port, [tool]);
    expect((await dispatcher.dispatch('risky', { key: 'a' }, ctx())).status).toBe('ok');
    rules.removeRule(rules.listRules()[0]!.id);
    expect((await dispatcher.dispatch('risky', { key: 'a' }, ctx())).status).toBe('denied');
    expect(port.questions).toHaveLength(2);
    expect(runs).toHaveLength(1);
  });
});
