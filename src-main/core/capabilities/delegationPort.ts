import type { CitedAnswer } from '../../../src-preload/contract/answer';
import type { ChildStatus } from '../../../src-preload/contract/dataParts';

/**
 * What the delegation tools need from the delegation layer (src-main/core/delegation),
 * which sits above the runner and so above this layer: the composition root (core.ts)
 * hands an implementation to the host at construction, and the tools never import it.
 */

/** Who is asking: the run whose model (tool call) or cell (host call) made the request. */
export interface DelegationCaller {
  sessionId: string;
  /** The calling run; null outside a run (a REPL cell), which cannot delegate. */
  runId: string | null;
  signal: AbortSignal;
}

export interface ChildTask {
  /** What the child must do, in full: it sees nothing of the parent's conversation. */
  task: string;
  /** The parent's constraints the child must respect (scope, sources, format). */
  constraints?: string;
  /** Tools the child may use (a subset of the caller's); absent: the caller's own. */
  tools?: string[];
}

/** One child as the parent sees it. */
export interface ChildView {
  id: string;
  parentRunId: string;
  depth: number;
  task: string;
  status: ChildStatus;
  startedAt: string | null;
  finishedAt: string | null;
  elapsedMs: number;
  turns: number;
  /** The child's cited answer, once it completed. */
  answer: CitedAnswer | null;
  /** Why it did not complete. */
  failure: string | null;
  /** Evidence ids its answer cites: session evidence, so the parent may cite them too. */
  evidence: string[];
}

/** A request the delegation layer refused, by the limit it hit (said to the model as is). */
export type DelegationLimitName = 'fan_out' | 'session_cap' | 'depth' | 'budget' | 'forbidden' | 'not_running' | 'not_a_child' | 'ended';

export interface DelegationPort {
  /** Starts one child per task (all or none: a request over a limit starts nothing). */
  delegate(caller: DelegationCaller, tasks: ChildTask[]): Promise<ChildView[]>;
  /** The caller's children (direct), in the order they were started. */
  list(caller: DelegationCaller): ChildView[];
  /** Waits until the named children (default: all of the caller's) have ended, unless `wait` is false. */
  collect(caller: DelegationCaller, options: { ids?: string[]; wait?: boolean }): Promise<ChildView[]>;
  /** Stops a descendant and its whole subtree; resolves once all of it has ended. */
  stop(caller: DelegationCaller, childId: string): Promise<ChildView[]>;
  /** Hands a running or queued child a message it reads before its next model request. */
  send(caller: DelegationCaller, childId: string, message: string): ChildView;
}
