import { describe, expect, it } from 'vitest';
import { planText, updatePlanStep, writePlan } from '../../../src-main/core/memory/plan';

const T = (s: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, s)).toISOString();

describe('the plan', () => {
  it('writes a tree of steps with ids, parents and the times status changes imply', () => {
    const plan = writePlan([], [{ title: 'Search UniProt', status: 'in_progress' }, { id: 'fit', title: 'Fit the curve' }, { id: 'fit.a', title: 'Clean the data', parent: 'fit' }], T(0));
    expect(plan).toEqual([
      { id: 'plan-1', title: 'Search UniProt', status: 'in_progress', kind: 'plan', startedAt: T(0) },
      { id: 'plan-fit', title: 'Fit the curve', status: 'pending', kind: 'plan' },
      { id: 'plan-fit.a', title: 'Clean the data', status: 'pending', kind: 'plan', parentId: 'plan-fit' },
    ]);
    const { plan: next, step } = updatePlanStep(plan, { id: '1', status: 'completed', note: 'P01308' }, T(5));
    expect(step).toEqual({ id: 'plan-1', title: 'Search UniProt', status: 'completed', kind: 'plan', startedAt: T(0), finishedAt: T(5), items: ['P01308'] });
    // Rewriting keeps a step's times when its id stays; a step started again keeps no finish.
    const rewritten = writePlan(next, [{ id: '1', title: 'Search UniProt' }, { id: 'fit', title: 'Fit', status: 'in_progress' }], T(9));
    expect(rewritten[0]).toMatchObject({ status: 'completed', startedAt: T(0), finishedAt: T(5), items: ['P01308'] });
    expect(rewritten[1]).toMatchObject({ status: 'in_progress', startedAt: T(9) });
    expect(rewritten[1]!.finishedAt).toBeUndefined();
    expect(planText(rewritten)).toBe('[x] 1. Search UniProt\n[>] fit. Fit');
  });

  it('refuses duplicate ids, unknown parents and unknown steps, naming the fix', () => {
    expect(() => writePlan([], [{ id: 'a', title: 'A' }, { id: 'a', title: 'B' }], T(0))).toThrow(/Two plan steps have the id "a"/);
    expect(() => writePlan([], [{ id: 'a', title: 'A', parent: 'z' }], T(0))).toThrow(/parent "z", which is not a step/);
    expect(() => updatePlanStep([], { id: 'a', status: 'completed' }, T(0))).toThrow(/write_todos first/);
    const plan = writePlan([], [{ id: 'a', title: 'A' }], T(0));
    expect(() => updatePlanStep(plan, { id: 'b', status: 'completed' }, T(0))).toThrow(/the steps are "a"/);
  });

  it('indents sub-steps and shows why a step failed', () => {
    let plan = writePlan([], [{ id: 'a', title: 'A' }, { id: 'b', title: 'B', parent: 'a' }], T(0));
    plan = updatePlanStep(plan, { id: 'b', status: 'failed', note: 'no structure in PDB' }, T(1)).plan;
    expect(planText(plan)).toBe('[ ] a. A\n  [!] b. B (no structure in PDB)');
  });
});
