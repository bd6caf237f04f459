import { afterEach, describe, expect, it } from 'vitest';
import { fold } from '../../../src-preload/contract/fold';
import { DEFAULT_LIMITS } from '../../../src-main/core/delegation/limits';
import { validAnswer } from '../../support/mockModel';
import { call, childIds, delegationHarness, runMessage, type Asker, type Harness } from './harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const lastTool = (a: Asker) => a.tools.at(-1);
const finalize = () => call('finalize_response', validAnswer);

describe('delegation limits (refused by name)', () => {
  it('the seed caps are the defaults: fan-out 48, 1,000 per session, depth 4, 4 at a time', () => {
    expect(DEFAULT_LIMITS).toMatchObject({ fanOut: 48, perSession: 1_000, maxDepth: 4, concurrency: 4 });
  });

  it('a chain of children reaches depth 4, where delegation is refused; every level collects and completes', async () => {
    const seen = new Map<number, string[]>();
    h = delegationHarness({
      reply: (a) => {
        seen.set(a.depth, a.tools.map((t) => t.content));
        const last = lastTool(a);
        if (!last) return call('delegate_task', { task: `work at level ${a.depth + 1}` });
        if (last.toolName === 'delegate_task' && last.content.startsWith('Started')) return call('collect_children', {});
        return finalize();
      },
    });
    const session = h.ledger.createSession('depth');
    const root = await runMessage(h, session.id, 'go as deep as you can');
    expect(root.status).toBe('completed');
    const children = h.ledger.runs.listChildren(session.id);
    expect(children.map((c) => c.depth)).toEqual([1, 2, 3, 4]);
    expect(children.map((c) => c.status)).toEqual(['completed', 'completed', 'completed', 'completed']);
    // Each child names its parent: a chain.
    expect(children[0]!.parentRunId).toBe(root.id);
    for (let i = 1; i < 4; i++) expect(children[i]!.parentRunId).toBe(children[i - 1]!.id);
    // The depth-4 child asked and was refused by name; it was not offered the tool either.
    expect(seen.get(4)![0]).toMatch(/refused \(depth\): a child at depth 4 cannot delegate/);
    // The user's message shows the whole tree as parts, every child completed.
    const message = fold(h.ledger.events.readFrom(session.id).map((e) => e.chunk)).at(-1)!;
    const parts = message.parts.filter((p) => p.type === 'data-child') as { data: { depth: number; status: string } }[];
    expect(parts.map((p) => [p.data.depth, p.data.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
      [3, 'completed'],
      [4, 'completed'],
    ]);
  });

  it('the 49th child of one parent is refused (in one call and one at a time); 48 run and are collected', async () => {
    const parentResults: string[] = [];
    const tasks = (n: number) => Array.from({ length: n }, (_, i) => ({ task: `protein ${i + 1}` }));
    h = delegationHarness({
      reply: (a) => {
        if (a.depth > 0) return finalize();
        parentResults.splice(0, parentResults.length, ...a.tools.map((t) => t.content));
        switch (a.tools.length) {
          case 0:
            return call('delegate_task', { tasks: tasks(49) });
          case 1:
            return call('delegate_task', { tasks: tasks(48) });
          case 2:
            return call('delegate_task', { task: 'one more' });
          case 3:
            return call('collect_children', {});
          default:
            return finalize();
        }
      },
    });
    const session = h.ledger.createSession('fan-out');
    const root = await runMessage(h, session.id, 'survey 49 proteins');
    expect(root.status).toBe('completed');
    expect(parentResults[0]).toMatch(/refused \(fan_out\): one run may start at most 48 children; this one has started 0 and asked for 49 more/);
    expect(childIds(parentResults[1]!)).toHaveLength(48);
    expect(parentResults[2]).toMatch(/refused \(fan_out\): one run may start at most 48 children; this one has started 48 and asked for 1 more/);
    expect(parentResults[3]!.match(/\[completed\]/g)).toHaveLength(48);
    expect(h.ledger.runs.listChildren(session.id)).toHaveLength(48);
  });

  it('the session cap (injected here as 5) counts every child the session started, across its messages', async () => {
    let asks: { task: string }[] = [];
    const results: string[][] = [];
    const reply = (a: Asker) => {
      if (a.depth > 0) return finalize();
      results.push(a.tools.map((t) => t.content));
      if (a.tools.length === 0) return call('delegate_task', { tasks: asks });
      if (a.tools.length === 1 && a.tools[0]!.content.startsWith('Started')) return call('collect_children', {});
      return finalize();
    };
    h = delegationHarness({ reply, limits: { perSession: 5 } });
    const session = h.ledger.createSession('cap');
    asks = [{ task: 'a' }, { task: 'b' }, { task: 'c' }];
    await runMessage(h, session.id, 'first');
    asks = [{ task: 'd' }, { task: 'e' }, { task: 'f' }];
    await runMessage(h, session.id, 'second');
    expect(results.at(-1)![0]).toMatch(/refused \(session_cap\): a session may start at most 5 children; this one has started 3/);
    asks = [{ task: 'd' }, { task: 'e' }];
    await runMessage(h, session.id, 'third');
    expect(h.ledger.runs.listChildren(session.id)).toHaveLength(5);
    expect(h.ledger.runs.listChildren(session.id).length).toBe(5);
    asks = [{ task: 'g' }];
    await runMessage(h, session.id, 'fourth');
    expect(results.at(-1)![0]).toMatch(/refused \(session_cap\)/);
  });

  it('the composer can forbid delegation for a message; the next message may delegate again', async () => {
    const results: string[] = [];
    h = delegationHarness({
      reply: (a) => {
        if (a.depth > 0) return finalize();
        if (a.tools.length === 0) return call('delegate_task', { task: 'x' });
        results.push(a.tools[0]!.content);
        if (a.tools.length === 1 && a.tools[0]!.content.startsWith('Started')) return call('collect_children', {});
        return finalize();
      },
    });
    const session = h.ledger.createSession('forbid');
    await runMessage(h, session.id, 'no children please', { delegation: false });
    expect(results[0]).toMatch(/refused \(forbidden\): delegation is turned off for this message/);
    expect(h.ledger.runs.listChildren(session.id)).toHaveLength(0);
    await runMessage(h, session.id, 'children welcome');
    expect(results[1]).toMatch(/^Started 1 child agent/);
  });

  it('a child may be given fewer tools, never more; a call outside its list is refused without running', async () => {
    const childSaw: string[][] = [];
    const parentSaw: string[] = [];
    h = delegationHarness({
      reply: (a) => {
        if (a.depth === 1) {
          childSaw.push((a.request.tools ?? []).map((t) => t.name));
          if (a.tools.length === 0) return call('list_children', {});
          return finalize();
        }
        if (a.depth === 2) return finalize();
        parentSaw.push(...a.tools.slice(parentSaw.length).map((t) => t.content));
        if (a.tools.length === 0) return call('delegate_task', { task: 'restricted', tools: ['read_text_file'] });
        if (a.tools.length === 1) return call('collect_children', {});
        return finalize();
      },
    });
    const session = h.ledger.createSession('tools');
    await runMessage(h, session.id, 'restrict');
    // Offered only its list (plus finalize_response, which the engine always offers).
    expect(childSaw[0]!.filter((n) => n !== 'finalize_response')).toEqual(['read_text_file']);
    expect(parentSaw[1]).toMatch(/\[completed\]/);
    const child = h.ledger.runs.listChildren(session.id)[0]!;
    const groups = h.ledger.actions.listByRun(child.id);
    expect(groups.length).toBeGreaterThan(0);
    const refused = groups.flatMap((g) => g.events).find((e) => e.name === 'list_children');
    expect(JSON.stringify(refused)).toMatch(/did not allow list_children/);
  });

  it('a child cannot hand its own child a tool it was not given', async () => {
    const childSaw: string[] = [];
    h = delegationHarness({
      reply: (a) => {
        if (a.depth === 1) {
          childSaw.splice(0, childSaw.length, ...a.tools.map((t) => t.content));
          if (a.tools.length === 0) return call('delegate_task', { task: 'fetch a page', tools: ['web_fetch'] });
          if (a.tools.length === 1) return call('delegate_task', { task: 'read a file', tools: ['read_text_file'] });
          if (a.tools.length === 2) return call('collect_children', {});
          return finalize();
        }
        if (a.depth === 2) return finalize();
        if (a.tools.length === 0) return call('delegate_task', { task: 'narrow', tools: ['delegate_task', 'collect_children', 'read_text_file'] });
        if (a.tools.length === 1) return call('collect_children', {});
        return finalize();
      },
    });
    const session = h.ledger.createSession('narrow');
    await runMessage(h, session.id, 'narrow the tools');
    expect(childSaw[0]).toMatch(/refused \(forbidden\): a child cannot have tools its parent lacks \(web_fetch\)/);
    expect(childSaw[1]).toMatch(/^Started 1 child agent/);
    expect(h.ledger.runs.listChildren(session.id).map((r) => [r.depth, r.status])).toEqual([
      [1, 'completed'],
      [2, 'completed'],
    ]);
  });
});
