import { AppError } from '../../../src-preload/contract/errors';
import type { ThinkingStepData, ThinkingStepStatus } from '../../../src-preload/contract/dataParts';

/**
 * The agent's visible plan: a list of steps (a tree by parent), each with a status and the
 * times it started and finished. write_todos replaces the whole list; update_plan_step
 * changes one step. The model names steps by short ids ("1", "fit", ...); a step's part id
 * on the stream is `plan-<id>`, so the plan's parts never collide with activity steps.
 */
export interface PlanStepInput {
  id?: string | undefined;
  title: string;
  status?: ThinkingStepStatus | undefined;
  parent?: string | undefined;
}

export const PLAN_PART_PREFIX = 'plan-';
export const MAX_PLAN_STEPS = 40;

/** The model's id of a plan step from its part id (`plan-fit` → `fit`). */
export function planStepId(partId: string): string {
  return partId.startsWith(PLAN_PART_PREFIX) ? partId.slice(PLAN_PART_PREFIX.length) : partId;
}

const partId = (id: string) => `${PLAN_PART_PREFIX}${id}`;

/** Sets the times a status change implies: a step starts when it runs, finishes when it completes or fails. */
function stamped(step: ThinkingStepData, status: ThinkingStepStatus, now: string): ThinkingStepData {
  const next: ThinkingStepData = { ...step, status };
  if (status === 'pending') {
    delete next.startedAt;
    delete next.finishedAt;
  } else if (status === 'in_progress') {
    next.startedAt = step.status === 'in_progress' && step.startedAt ? step.startedAt : now;
    delete next.finishedAt;
  } else if (step.status !== status || !step.finishedAt) {
    next.finishedAt = now;
  }
  return next;
}

/**
 * The plan after write_todos: the given steps in order. A step that keeps its id keeps its
 * times (and notes) from the previous plan; ids default to the step's position ("1", "2", ...).
 */
export function writePlan(previous: readonly ThinkingStepData[], todos: readonly PlanStepInput[], now: string): ThinkingStepData[] {
  if (todos.length > MAX_PLAN_STEPS) throw new AppError('invalid_input', `A plan has at most ${MAX_PLAN_STEPS} steps (got ${todos.length}): group small steps under a parent.`);
  const before = new Map(previous.map((s) => [s.id, s]));
  const ids = todos.map((t, i) => (t.id?.trim() ? t.id.trim() : String(i + 1)));
  const seen = new Set<string>();
  for (const id of ids) {
    if (seen.has(id)) throw new AppError('invalid_input', `Two plan steps have the id "${id}": give each step its own id.`);
    seen.add(id);
  }
  return todos.map((todo, i) => {
    const id = partId(ids[i]!);
    if (todo.parent !== undefined && !seen.has(todo.parent)) {
      throw new AppError('invalid_input', `Step "${ids[i]}" names parent "${todo.parent}", which is not a step of this plan: use one of ${[...seen].map((s) => `"${s}"`).join(', ')}.`);
    }
    if (todo.parent === ids[i]) throw new AppError('invalid_input', `Step "${ids[i]}" cannot be its own parent.`);
    const old = before.get(id);
    const base: ThinkingStepData = { ...(old ?? {}), id, title: todo.title.trim(), status: old?.status ?? 'pending', kind: 'plan' };
    if (todo.parent !== undefined) base.parentId = partId(todo.parent);
    else delete base.parentId;
    return stamped(base, todo.status ?? old?.status ?? 'pending', now);
  });
}

/** The plan after update_plan_step: one step's new status, and a note added to its items. */
export function updatePlanStep(
  plan: readonly ThinkingStepData[],
  update: { id: string; status: ThinkingStepStatus; note?: string | undefined },
  now: string,
): { plan: ThinkingStepData[]; step: ThinkingStepData } {
  const id = partId(update.id);
  const index = plan.findIndex((s) => s.id === id);
  if (index < 0) {
    const known = plan.map((s) => `"${planStepId(s.id)}"`).join(', ');
    throw new AppError('not_found', plan.length ? `No plan step "${update.id}": the steps are ${known}.` : 'There is no plan yet: write one with write_todos first.');
  }
  let step = stamped(plan[index]!, update.status, now);
  const note = update.note?.trim();
  if (note) step = { ...step, items: [...(step.items ?? []), note] };
  const next = [...plan];
  next[index] = step;
  return { plan: next, step };
}

/** The plan as the model reads it: one line per step, indented under its parent. */
export function planText(plan: readonly ThinkingStepData[]): string {
  const depth = new Map<string, number>();
  const mark: Record<ThinkingStepStatus, string> = { pending: '[ ]', in_progress: '[>]', completed: '[x]', failed: '[!]' };
  return plan
    .map((s) => {
      const d = s.parentId ? (depth.get(s.parentId) ?? 0) + 1 : 0;
      depth.set(s.id, d);
      return `${'  '.repeat(d)}${mark[s.status]} ${planStepId(s.id)}. ${s.title}${s.status === 'failed' && s.items?.length ? ` (${s.items[s.items.length - 1]})` : ''}`;
    })
    .join('\n');
}
