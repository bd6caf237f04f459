import { describe, expect, it } from 'vitest';
import { activeBranch, offBranch, runOfMessage, supersededBy } from '../../../src-preload/contract/fold';
import type { UIMessage } from '../../../src-preload/contract/stream';

/** A user turn and its run's answer, the way the ledger's stream folds them. */
function exchange(run: string, supersedes?: string): UIMessage[] {
  return [
    { id: `user-${run}`, role: 'user', parts: [{ type: 'text', text: `q ${run}` }] },
    { id: run, role: 'assistant', ...(supersedes ? { metadata: { supersedes } } : {}), parts: [{ type: 'text', text: `a ${run}` }] },
  ];
}
const ids = (messages: UIMessage[]) => messages.map((m) => m.id);

describe('retry and edit branches', () => {
  it('a message names its run, and an assistant message the run it supersedes', () => {
    expect(runOfMessage({ id: 'user-r1', role: 'user' })).toBe('r1');
    expect(runOfMessage({ id: 'r1', role: 'assistant' })).toBe('r1');
    expect(supersededBy({ role: 'assistant', metadata: { supersedes: 'r1' } })).toBe('r1');
    expect(supersededBy({ role: 'assistant', metadata: { provider: 'ark' } })).toBeNull();
    expect(supersededBy({ role: 'user', metadata: { supersedes: 'r1' } })).toBeNull();
  });

  it('a retry of the last run drops only that exchange from the context', () => {
    const messages = [...exchange('r1'), ...exchange('r2'), ...exchange('r3', 'r2')];
    expect(ids(activeBranch(messages))).toEqual(['user-r1', 'r1', 'user-r3', 'r3']);
    expect(offBranch(messages)).toEqual([false, false, true, true, false, false]);
  });

  it('editing an earlier question continues from before it: everything after it is off the branch', () => {
    const messages = [...exchange('r1'), ...exchange('r2'), ...exchange('r3'), ...exchange('r4', 'r2'), ...exchange('r5')];
    expect(ids(activeBranch(messages))).toEqual(['user-r1', 'r1', 'user-r4', 'r4', 'user-r5', 'r5']);
  });

  it('a retry of a retry keeps only the newest attempt', () => {
    const messages = [...exchange('r1'), ...exchange('r2', 'r1'), ...exchange('r3', 'r2')];
    expect(ids(activeBranch(messages))).toEqual(['user-r3', 'r3']);
  });

  it('a run about to start that supersedes another cuts from that run to the end', () => {
    const messages = [...exchange('r1'), ...exchange('r2')];
    expect(ids(activeBranch(messages, 'r2'))).toEqual(['user-r1', 'r1']);
    expect(ids(activeBranch(messages, 'gone'))).toEqual(ids(messages));
  });
});
