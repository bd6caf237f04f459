import { afterEach, describe, expect, it } from 'vitest';
import { validAnswer } from '../../support/mockModel';
import type { DelegationCaller } from '../../../src-main/core/capabilities/delegationPort';
import { call, delegationHarness, type Harness } from './harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/**
 * The caps hold when delegations race: a cell may call host.delegate from several threads at
 * once, and a tool batch may hold several delegate_task calls. However they interleave, one
 * parent never passes 48 children and a session never passes its cap.
 */
describe('delegation limits under concurrent requests', () => {
  it('many delegations at once from one run: exactly 48 start, the rest are refused by name, the session cap holds too', async () => {
    let caller: DelegationCaller | null = null;
    let outcomes: PromiseSettledResult<unknown>[] = [];
    h = delegationHarness({
      limits: { perSession: 60 },
      reply: async (a) => {
        if (a.depth > 0) return call('finalize_response', validAnswer);
        if (!a.tools.length) {
          // While the run is live: 20 requests of 5 children each, all at once, straight at the port (as racing host calls do).
          outcomes = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => h!.service.delegate(caller!, Array.from({ length: 5 }, (_, j) => ({ task: `t${i}-${j}` })))));
          return call('collect_children', {});
        }
        return call('finalize_response', validAnswer);
      },
    });
    const session = h.ledger.createSession('race');
    const run = h.runner.submit({ sessionId: session.id, mutationId: 'r', message: 'fan out from many threads' });
    caller = { sessionId: session.id, runId: run.id, signal: new AbortController().signal };
    expect((await h.runner.result(run.id)).status).toBe('completed');
    const started = outcomes.filter((o) => o.status === 'fulfilled').length;
    const refused = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => String(o.reason));
    // 9 requests of 5 fit under 48; the 10th would make 50.
    expect(started).toBe(9);
    expect(refused).toHaveLength(11);
    for (const r of refused) expect(r).toMatch(/refused \(fan_out\): one run may start at most 48 children; this one has started 45 and asked for 5 more/);
    expect(h.ledger.runs.listChildren(session.id)).toHaveLength(45);

    // The next message of the session: 15 more fit under the session cap of 60, the rest are refused by it.
    const again = h.runner.submit({ sessionId: session.id, mutationId: 'r2', message: 'again' });
    caller = { sessionId: session.id, runId: again.id, signal: new AbortController().signal };
    outcomes = [];
    await h.runner.result(again.id);
    const second = outcomes;
    const secondRefused = second.filter((o): o is PromiseRejectedResult => o.status === 'rejected').map((o) => String(o.reason));
    expect(second.filter((o) => o.status === 'fulfilled')).toHaveLength(3);
    for (const r of secondRefused) expect(r).toMatch(/refused \(session_cap\): a session may start at most 60 children; this one has started 60/);
    expect(h.ledger.runs.listChildren(session.id)).toHaveLength(60);
  });
});
