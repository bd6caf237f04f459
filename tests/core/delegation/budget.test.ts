import { afterEach, describe, expect, it } from 'vitest';
import { fold } from '../../../src-preload/contract/fold';
import { validAnswer } from '../../support/mockModel';
import { call, childIds, delegationHarness, runMessage, type Harness } from './harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const finalize = () => call('finalize_response', validAnswer);

describe('one shared budget per session; the parent is told', () => {
  it('children that would spend past the budget end as budget_exhausted; the parent reads it when it collects; more delegation is refused', async () => {
    // Every model call costs 15 tokens (10 in, 5 out). One child at a time; 40 tokens for all.
    const parentSaw: string[] = [];
    h = delegationHarness({
      limits: { concurrency: 1, tokenBudget: 40 },
      reply: (a) => {
        if (a.depth === 1) return a.tools.length ? finalize() : call('list_children', {});
        parentSaw.splice(0, parentSaw.length, ...a.tools.map((t) => t.content));
        if (a.tools.length === 0) return call('delegate_task', { tasks: [{ task: 'first' }, { task: 'second' }, { task: 'third' }] });
        if (a.tools.length === 1) return call('collect_children', {});
        if (a.tools.length === 2) return call('delegate_task', { task: 'fourth' });
        return finalize();
      },
    });
    const session = h.ledger.createSession('budget');
    const root = await runMessage(h, session.id, 'three children, a small budget');
    expect(root.status).toBe('completed');
    const [first, second, third] = childIds(parentSaw[0]!);
    const collected = parentSaw[1]!;
    // The first child spent 30 tokens and finished; the second's second call would pass 40; the third never started.
    expect(collected).toMatch(new RegExp(`child ${first} \\[completed\\]`));
    expect(collected).toMatch(new RegExp(`child ${second} \\[budget_exhausted\\]`));
    expect(collected).toMatch(new RegExp(`child ${third} \\[budget_exhausted\\]`));
    expect(collected).toMatch(/Ended: the session's delegation budget is spent \(45 of 40 tokens\); raise OPENAI4S_DELEGATION_TOKEN_BUDGET/);
    expect(collected).toMatch(/Not started: the session's delegation budget is spent/);
    expect(parentSaw[2]).toMatch(/refused \(budget\): the session's delegation budget is spent/);
    // The ledger records why.
    const rows = h.ledger.runs.listChildren(session.id);
    expect(rows.map((r) => [r.status, r.failureCode])).toEqual([
      ['completed', null],
      ['failed', 'budget_exhausted'],
      ['failed', 'budget_exhausted'],
    ]);
    expect(rows[0]!.usage).toEqual({ inputTokens: 20, outputTokens: 10 });
    // The conversation shows it.
    const message = fold(h.ledger.events.readFrom(session.id).map((e) => e.chunk)).at(-1)!;
    const statuses = message.parts.filter((p) => p.type === 'data-child').map((p) => (p as { data: { status: string } }).data.status);
    expect(statuses).toEqual(['completed', 'budget_exhausted', 'budget_exhausted']);
    // The budget is the session's: its next message finds it spent too (rebuilt from the ledger).
    await runMessage(h, session.id, 'again');
    expect(parentSaw[0]).toMatch(/refused \(budget\)/);
  });

  it('send_child_message reaches a running child before its next request; an ended child refuses it', async () => {
    const childSaw: string[][] = [];
    const parentSaw: string[] = [];
    let release: (() => void) | null = null;
    const held = new Promise<void>((resolve) => (release = resolve));
    h = delegationHarness({
      reply: async (a) => {
        if (a.depth === 1) {
          childSaw.push(a.request.messages.filter((m) => m.role === 'user').map((m) => m.content));
          if (a.tools.length === 0) {
            // Holds its first turn until the parent has sent its message.
            await held;
            return call('list_children', {});
          }
          return finalize();
        }
        parentSaw.splice(0, parentSaw.length, ...a.tools.map((t) => t.content));
        const id = childIds(parentSaw[0] ?? '')[0];
        if (a.tools.length === 0) return call('delegate_task', { task: 'survey BRAF' });
        if (a.tools.length === 1) return call('send_child_message', { id, message: 'only human BRAF, please' });
        if (a.tools.length === 2) {
          release?.();
          return call('collect_children', {});
        }
        if (a.tools.length === 3) return call('send_child_message', { id, message: 'too late' });
        return finalize();
      },
    });
    const session = h.ledger.createSession('steer');
    await runMessage(h, session.id, 'steer a child');
    expect(parentSaw[1]).toMatch(/^Sent to child .+ \[(queued|running)\]/);
    expect(childSaw.at(-1)).toEqual(['survey BRAF', 'Message from the parent agent:\nonly human BRAF, please']);
    expect(parentSaw[3]).toMatch(/refused \(ended\): child .+ has ended \(completed\)/);
  });
});
