import { afterEach, describe, expect, it } from 'vitest';
import { fold } from '../../../src-preload/contract/fold';
import { finish, validAnswer } from '../../support/mockModel';
import { call, childIds, delegationHarness, type Harness } from './harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

/**
 * Stop during spawn: children still waiting for a pool slot (queued) are stopped before they
 * ever start. None of them makes a model call afterwards, their rows are closed as cancelled,
 * their cards read stopped, and the pool is left empty.
 */
describe('stopping children that are still queued', () => {
  it('stop_child on a queued child, and Stop on the run with more queued: none of them ever starts', async () => {
    const gate = { release: () => {} };
    const firstHeld = new Promise<void>((resolve) => (gate.release = resolve));
    const childTasks: string[] = [];
    const parentSaw: string[] = [];
    let stopRequested: (() => void) | null = null;
    const stopNow = new Promise<void>((resolve) => (stopRequested = resolve));
    h = delegationHarness({
      limits: { concurrency: 1 },
      reply: async (a) => {
        if (a.depth === 1) {
          childTasks.push(a.task);
          // The first child holds its slot until the test lets it go: the others stay queued.
          await firstHeld;
          return call('finalize_response', validAnswer);
        }
        parentSaw.splice(0, parentSaw.length, ...a.tools.map((t) => t.content));
        if (a.tools.length === 0) return call('delegate_task', { tasks: [{ task: 'one' }, { task: 'two' }, { task: 'three' }, { task: 'four' }] });
        if (a.tools.length === 1) return call('stop_child', { id: childIds(parentSaw[0]!)[1] });
        // Then the run waits to be stopped by the user, with children three and four still queued.
        stopRequested?.();
        await new Promise((resolve) => a.request.signal?.addEventListener('abort', resolve, { once: true }));
        return [finish()];
      },
    });
    const session = h.ledger.createSession('stop queued');
    const run = h.runner.submit({ sessionId: session.id, mutationId: 'q', message: 'four children, one slot' });
    await stopNow;
    expect(parentSaw[1]).toMatch(/child \S+ \[stopped\][^\n]*\n\s+Stopped by its parent \(stop_child\)\./);
    expect(h.runner.stop(session.id)).toEqual({ stopped: run.id });
    expect((await h.runner.result(run.id)).status).toBe('cancelled');
    gate.release();
    await h.service.close();
    // Only the first child ever asked the model.
    expect(childTasks).toEqual(['one']);
    expect(h.ledger.runs.listChildren(session.id).map((c) => [c.status, c.failureCode])).toEqual([
      ['cancelled', 'cancelled'],
      ['cancelled', 'cancelled'],
      ['cancelled', 'cancelled'],
      ['cancelled', 'cancelled'],
    ]);
    const message = fold(h.ledger.events.readFrom(session.id).map((e) => e.chunk)).at(-1)!;
    const cards = message.parts.filter((p) => p.type === 'data-child').map((p) => (p as { data: { status: string } }).data.status);
    expect(cards).toEqual(['stopped', 'stopped', 'stopped', 'stopped']);
    expect(h.service.sizes()).toMatchObject({ nodes: 0, poolRunning: 0, poolWaiting: 0 });
  });
});
