import type { ThinkingStepData } from '../../../../src-preload/contract';

/** A step with its sub-steps (by `parentId`), in the order the steps first appeared. */
export interface StepNode {
  step: ThinkingStepData;
  children: StepNode[];
}

/**
 * The steps as a forest: a step whose `parentId` names another step of the list sits under
 * it; a step whose parent is unknown (not sent, or a cycle) is a root, so nothing is hidden.
 */
export function stepTree(steps: readonly ThinkingStepData[]): StepNode[] {
  const nodes = new Map<string, StepNode>();
  for (const step of steps) nodes.set(step.id, { step, children: [] });
  // The parent each step was actually attached to, so a cycle is cut where it would close.
  const attachedTo = new Map<string, string>();
  const roots: StepNode[] = [];
  for (const node of nodes.values()) {
    const parentId = node.step.parentId;
    const parent = parentId ? nodes.get(parentId) : undefined;
    if (parent && parentId && !reaches(parentId, node.step.id, attachedTo)) {
      parent.children.push(node);
      attachedTo.set(node.step.id, parentId);
    } else roots.push(node);
  }
  return roots;
}

/** True when following attached parents from `from` arrives at `target` (or `from` is it). */
function reaches(from: string, target: string, attachedTo: Map<string, string>): boolean {
  for (let cur: string | undefined = from; cur !== undefined; cur = attachedTo.get(cur)) {
    if (cur === target) return true;
  }
  return false;
}

/** Milliseconds a step ran: to its finish, or to `now` while it runs; null without a start. */
export function stepElapsedMs(step: ThinkingStepData, now: number): number | null {
  if (!step.startedAt) return null;
  const start = Date.parse(step.startedAt);
  if (Number.isNaN(start)) return null;
  const end = step.finishedAt ? Date.parse(step.finishedAt) : now;
  return Number.isNaN(end) ? null : Math.max(0, end - start);
}

/** The step running now: the last `in_progress` step (the deepest one when nested). */
export function currentStep(steps: readonly ThinkingStepData[]): ThinkingStepData | null {
  for (let i = steps.length - 1; i >= 0; i--) if (steps[i]!.status === 'in_progress') return steps[i]!;
  return null;
}
