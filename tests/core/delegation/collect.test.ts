import { afterEach, describe, expect, it } from 'vitest';
import { validAnswer } from '../../support/mockModel';
import { call, delegationHarness, runMessage, type Harness } from './harness';

let h: Harness | null = null;
const warnings: Error[] = [];
const onWarning = (w: Error) => warnings.push(w);
afterEach(async () => {
  process.off('warning', onWarning);
  await h?.close();
  h = null;
});

describe('collect_children', () => {
  it('called again and again by one run, leaves no listener behind on its signal (no leak warning)', async () => {
    process.on('warning', onWarning);
    const COLLECTS = 15;
    h = delegationHarness({
      reply: (a) => {
        if (a.depth > 0) return call('finalize_response', validAnswer);
        if (!a.tools.length) return call('delegate_task', { task: 'one small task' });
        if (a.tools.length <= COLLECTS) return call('collect_children', {});
        return call('finalize_response', validAnswer);
      },
    });
    const session = h.ledger.createSession('collect often');
    const root = await runMessage(h, session.id, 'delegate once, collect many times');
    expect(root.status).toBe('completed');
    await new Promise((resolve) => setImmediate(resolve));
    expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
  });
});
