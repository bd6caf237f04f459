import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { fold } from '../../../src-preload/contract/fold';
import { openLedger } from '../../../src-main/core/ledger/ledger';
import { runTree } from '../../../src-main/core/export/runTree';
import { tempDir, tempLedger, track } from '../ledger/support';

describe('child runs in the ledger (migration 7)', () => {
  it('a child run names its parent and depth, is not a user message, and leaves the session revision alone', () => {
    const l = tempLedger();
    const session = l.createSession('tree');
    const root = l.runs.submit(session.id, 'm1', 'six proteins').run;
    l.runs.start(root.id, 'openai', 'gpt');
    const revision = l.sessions.require(session.id).revision;
    const child = l.runs.startChild({ sessionId: session.id, parentRunId: root.id, depth: 1, task: 'BRAF', provider: 'openai', model: 'gpt' });
    const grandchild = l.runs.startChild({ sessionId: session.id, parentRunId: child.id, depth: 2, task: 'BRAF structure', provider: 'openai', model: 'gpt' });
    expect(child).toMatchObject({ status: 'processing', parentRunId: root.id, depth: 1, message: 'BRAF' });
    expect(l.sessions.require(session.id).revision).toBe(revision);
    // The session's runs stay the user's messages; the children are listed apart.
    expect(l.runs.listBySession(session.id).map((r) => r.id)).toEqual([root.id]);
    expect(l.runs.listBySession(session.id)[0]).not.toHaveProperty('parentRunId');
    expect(l.runs.listChildren(session.id).map((r) => r.id)).toEqual([child.id, grandchild.id]);
    expect(l.runs.listChildren(session.id).length).toBe(2);
    // No user turn in the stream for a child.
    expect(l.events.readFrom(session.id).filter((e) => e.chunk.type === 'user-message')).toHaveLength(1);
    l.runs.finish(grandchild.id, { status: 'cancelled', failureCode: 'cancelled', failureMessage: 'Stopped by its parent (stop_child).' });
    l.runs.finish(child.id, { status: 'failed', failureCode: 'budget_exhausted', failureMessage: 'budget spent' });
    const tree = runTree(l.runs.listBySession(session.id), l.runs.listChildren(session.id));
    expect(tree).toHaveLength(1);
    expect(tree[0]!.children.map((c) => [c.id, c.status, c.failureCode])).toEqual([[child.id, 'failed', 'budget_exhausted']]);
    expect(tree[0]!.children[0]!.children.map((c) => [c.id, c.depth, c.status])).toEqual([[grandchild.id, 2, 'cancelled']]);
  });

  it('refuses a parent of another session and a depth past 4', () => {
    const l = tempLedger();
    const a = l.createSession('a');
    const b = l.createSession('b');
    const root = l.runs.submit(a.id, 'm1', 'q').run;
    expect(() => l.runs.startChild({ sessionId: b.id, parentRunId: root.id, depth: 1, task: 't', provider: null, model: null })).toThrow(/is not a run of session/);
    expect(() => l.runs.startChild({ sessionId: a.id, parentRunId: root.id, depth: 5, task: 't', provider: null, model: null })).toThrow(/CHECK constraint/);
  });

  it('crash repair fails a child that was running without opening a stray message in the history', () => {
    const file = path.join(tempDir(), 'ledger.sqlite3');
    const first = openLedger(file);
    const session = first.createSession('crash');
    const root = first.runs.submit(session.id, 'm1', 'q').run;
    first.runs.start(root.id, null, null);
    const child = first.runs.startChild({ sessionId: session.id, parentRunId: root.id, depth: 1, task: 't', provider: null, model: null });
    first.close();
    const l = track(openLedger(file));
    expect(l.runs.require(child.id)).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
    expect(l.runs.require(root.id)).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
    expect(l.events.readFrom(session.id).filter((e) => e.runId === child.id)).toEqual([]);
    expect(fold(l.events.readFrom(session.id).map((e) => e.chunk)).map((m) => m.role)).toEqual(['user', 'assistant']);
  });
});
