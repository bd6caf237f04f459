import type { RunRecord } from '../../../src-preload/contract/sessions';

/** One run of the export's run tree: the run's record and the child runs it started (delegation). */
export interface RunTreeNode {
  id: string;
  /** The user's message, or a child's task. */
  message: string;
  status: RunRecord['status'];
  failureCode: RunRecord['failureCode'];
  failureMessage: string | null;
  depth: number;
  startedAt: string | null;
  finishedAt: string | null;
  usage: RunRecord['usage'];
  children: RunTreeNode[];
}

/**
 * The session's runs as a tree (issue 20): each user's run at the root, the child runs
 * under the run that started them, in the order they were created. A child whose parent
 * is missing from the list (it cannot be, in one ledger) is kept at the root, never dropped.
 */
export function runTree(userRuns: readonly RunRecord[], childRuns: readonly RunRecord[]): RunTreeNode[] {
  const nodes = new Map<string, RunTreeNode>();
  const node = (r: RunRecord): RunTreeNode => ({
    id: r.id,
    message: r.message,
    status: r.status,
    failureCode: r.failureCode,
    failureMessage: r.failureMessage,
    depth: r.depth ?? 0,
    startedAt: r.startedAt,
    finishedAt: r.finishedAt,
    usage: r.usage,
    children: [],
  });
  const roots: RunTreeNode[] = [];
  for (const r of userRuns) {
    const n = node(r);
    nodes.set(r.id, n);
    roots.push(n);
  }
  for (const r of childRuns) nodes.set(r.id, node(r));
  for (const r of childRuns) {
    const parent = r.parentRunId ? nodes.get(r.parentRunId) : undefined;
    (parent ? parent.children : roots).push(nodes.get(r.id)!);
  }
  return roots;
}
