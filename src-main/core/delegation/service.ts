import { dataChunk, transientDataChunk } from '../../../src-preload/contract/dataParts';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { AppError } from '../../../src-preload/contract/errors';
import type { ChildTask, ChildView, DelegationCaller, DelegationPort } from '../capabilities/delegationPort';
import type { EngineResult, KernelPort } from '../engine/ports';
import type { LiveRun, LiveRuns } from '../engine/liveRuns';
import type { Ledger } from '../ledger/ledger';
import { errorMessage } from '../shared/errorMessage';
import { SharedBudget } from './budget';
import { childTaskMessage } from './childPorts';
import { DEFAULT_LIMITS, DelegationRefusedError, type DelegationLimits } from './limits';
import { Pool } from './pool';
import { runChildEngine, type ChildEngineDeps } from './childEngine';
import { childData, childView, finishOutcome, newChildNode, TERMINAL, type ChildNode, type ChildOrigin } from './childNode';

/** A kernel for one child's cells (its own generation), released when the child ends. */
export interface ChildKernel extends KernelPort {
  release?(): Promise<void> | void;
}

/** The service's ports; a child's engine run is built from the ChildEngineDeps part (childEngine.ts). */
export interface DelegationDeps extends ChildEngineDeps {
  ledger: () => Pick<Ledger, 'runs'>;
  /** The user's runs streaming now (the roots of the trees): their model, stream and delegation switch. */
  liveRuns: LiveRuns;
  kernelFor(sessionId: string, runId: string): ChildKernel;
  /** Appends a chunk to the session's stream under the given run id (durable, then published). */
  append(sessionId: string, runId: string, chunk: StreamChunk): void;
  /** A child run ended: owners of per-run state (audit turns, disclosed tools) release it. */
  onRunEnd?(sessionId: string, runId: string): void;
  limits?: Partial<DelegationLimits>;
}

/** What a parent is: a user's run (depth 0) or a child, and the signal that ends it. */
type ParentInfo = ChildOrigin & { signal: AbortSignal };

interface SessionState {
  started: number;
  pool: Pool;
  budget: SharedBudget;
  /** Children started by a user's run, per root run id (the root is not a node). */
  rootChildren: Map<string, string[]>;
}

/**
 * Child agents (issue 20): a tree of runs under a user's run. Each child runs the same
 * engine loop with its own context, kernel and tools (never wider than its parent's),
 * from a bounded pool per session over one shared token and cost budget. Limits are
 * refused by name; stopping a child stops its subtree, and a stopped child's output
 * never reaches its parent, the stream or the ledger as a result.
 */
export class DelegationService implements DelegationPort {
  readonly limits: DelegationLimits;
  private readonly nodes = new Map<string, ChildNode>();
  private readonly sessions = new Map<string, SessionState>();
  /** User's runs whose end (or Stop) this service listens for, to end their trees. */
  private readonly watchedRoots = new Set<string>();

  constructor(private readonly deps: DelegationDeps) {
    this.limits = { ...DEFAULT_LIMITS, ...deps.limits };
    // A user's run that ends takes its tree with it: while it ends (its message still open, so
    // each child's final part lands in it), and again once it ended (a run that ended without
    // the engine's end, e.g. a failure before it started; a no-op when the tree is gone).
    const endTree = (sessionId: string, runId: string) => {
      if (this.watchedRoots.has(runId)) void this.endRoot(sessionId, runId);
    };
    deps.liveRuns.onEnding(endTree);
    deps.liveRuns.onEnd(endTree);
  }

  // ---- the port (tools and host calls) -----------------------------------------------

  async delegate(caller: DelegationCaller, tasks: ChildTask[]): Promise<ChildView[]> {
    const parent = this.parentOf(caller);
    if (!parent.mayDelegate) throw new DelegationRefusedError('forbidden', 'delegation is turned off for this message; do the work yourself.');
    if (parent.depth >= this.limits.maxDepth) {
      throw new DelegationRefusedError('depth', `a child at depth ${parent.depth} cannot delegate (the limit is ${this.limits.maxDepth} levels); do this task yourself.`);
    }
    const state = this.session(parent.sessionId);
    const siblings = this.childrenOf(parent.runId, parent.sessionId);
    if (siblings.length + tasks.length > this.limits.fanOut) {
      throw new DelegationRefusedError(
        'fan_out',
        `one run may start at most ${this.limits.fanOut} children; this one has started ${siblings.length} and asked for ${tasks.length} more. Combine tasks, or collect results and do the rest yourself.`,
      );
    }
    if (state.started + tasks.length > this.limits.perSession) {
      throw new DelegationRefusedError(
        'session_cap',
        `a session may start at most ${this.limits.perSession.toLocaleString('en-US')} children; this one has started ${state.started.toLocaleString('en-US')}. Start a new session for more delegated work.`,
      );
    }
    const spent = state.budget.exhausted();
    if (spent) throw new DelegationRefusedError('budget', `${spent}.`);
    for (const t of tasks) {
      const outside = parent.allowed && t.tools ? t.tools.filter((name) => !parent.allowed!.has(name)) : [];
      if (outside.length) throw new DelegationRefusedError('forbidden', `a child cannot have tools its parent lacks (${outside.join(', ')}).`);
    }
    state.started += tasks.length;
    return tasks.map((t) => childView(this.start(parent, state, t)));
  }

  list(caller: DelegationCaller): ChildView[] {
    const parent = this.parentOf(caller, true);
    return this.childrenOf(parent.runId, parent.sessionId).map((id) => childView(this.nodes.get(id)!));
  }

  async collect(caller: DelegationCaller, options: { ids?: string[]; wait?: boolean }): Promise<ChildView[]> {
    const parent = this.parentOf(caller, true);
    const mine = this.childrenOf(parent.runId, parent.sessionId);
    const ids = options.ids ?? mine;
    for (const id of ids) if (!mine.includes(id)) throw new DelegationRefusedError('not_a_child', `${id} is not a child of this run; list_children shows yours.`);
    const nodes = ids.map((id) => this.nodes.get(id)!);
    if (options.wait !== false && !caller.signal.aborted) {
      // The listener goes once the wait ends: a run that collects often must not pile them on its signal.
      let onAbort = () => {};
      const aborted = new Promise<void>((resolve) => (onAbort = resolve));
      caller.signal.addEventListener('abort', onAbort, { once: true });
      try {
        await Promise.race([Promise.all(nodes.map((n) => n.done)), aborted]);
      } finally {
        caller.signal.removeEventListener('abort', onAbort);
      }
    }
    return nodes.map((n) => childView(n));
  }

  async stop(caller: DelegationCaller, childId: string): Promise<ChildView[]> {
    const parent = this.parentOf(caller, true);
    const node = this.nodes.get(childId);
    if (!node || node.sessionId !== parent.sessionId || !this.isAncestor(parent.runId, node)) {
      throw new DelegationRefusedError('not_a_child', `${childId} is not a child (or descendant) of this run; list_children shows yours.`);
    }
    const subtree = this.subtree(node);
    this.end(subtree, 'stopped', 'Stopped by its parent (stop_child).');
    await Promise.all(subtree.map((n) => n.done));
    return subtree.map((n) => childView(n));
  }

  /** The user stopped a child from its card: it and its subtree end as a parent's stop_child would end them. */
  async stopFromUser(sessionId: string, runId: string): Promise<{ stopped: string[] }> {
    const node = this.nodes.get(runId);
    if (!node || node.sessionId !== sessionId) {
      throw new AppError('not_found', `Child run ${runId} is not running in this session (it ended, or its run did); nothing was stopped.`);
    }
    const subtree = this.subtree(node).filter((n) => !TERMINAL.has(n.status));
    this.end(subtree, 'stopped', 'Stopped by the user.');
    await Promise.all(subtree.map((n) => n.done));
    return { stopped: subtree.map((n) => n.runId) };
  }

  send(caller: DelegationCaller, childId: string, message: string): ChildView {
    const parent = this.parentOf(caller, true);
    const node = this.nodes.get(childId);
    if (!node || node.parentRunId !== parent.runId) throw new DelegationRefusedError('not_a_child', `${childId} is not a child of this run; list_children shows yours.`);
    if (TERMINAL.has(node.status)) throw new DelegationRefusedError('ended', `child ${childId} has ended (${node.status}); start a new child with delegate_task.`);
    node.inbox.push(message);
    return childView(node);
  }

  // ---- the tree ------------------------------------------------------------------------

  /** A user's run ended (any status): every child it started still running is stopped. */
  endRoot(sessionId: string, runId: string): Promise<void> {
    this.watchedRoots.delete(runId);
    const state = this.sessions.get(sessionId);
    const ids = state?.rootChildren.get(runId) ?? [];
    state?.rootChildren.delete(runId);
    const subtree = ids.flatMap((id) => this.subtree(this.nodes.get(id)!));
    this.end(subtree, 'stopped', 'Stopped: the run that started it ended.');
    const done = Promise.all(subtree.map((n) => n.done)).then(() => undefined);
    // The finished tree is forgotten once it has ended (its record is in the ledger), and an
    // idle session's pool and budget with it (rebuilt from the ledger on its next delegation).
    return done.then(() => {
      for (const n of subtree) this.nodes.delete(n.runId);
      if (state && this.sessions.get(sessionId) === state && !state.rootChildren.size && ![...this.nodes.values()].some((n) => n.sessionId === sessionId)) {
        this.sessions.delete(sessionId);
      }
    });
  }

  /** The session went away: its trees end and its pool and budget are dropped. */
  async endSession(sessionId: string): Promise<void> {
    const state = this.sessions.get(sessionId);
    if (!state) return;
    await Promise.all([...state.rootChildren.keys()].map((runId) => this.endRoot(sessionId, runId)));
    this.sessions.delete(sessionId);
  }

  /** Every tree ends (the app is closing); resolves once every child has ended. */
  async close(): Promise<void> {
    await Promise.all([...this.sessions.keys()].map((sessionId) => this.endSession(sessionId)));
    await Promise.all([...this.nodes.values()].map((n) => n.done));
  }

  /** Entries of the per-run and per-session tables (diagnostics and the lifecycle test). */
  sizes(): Record<string, number> {
    let running = 0;
    let waiting = 0;
    for (const s of this.sessions.values()) {
      running += s.pool.sizes().running;
      waiting += s.pool.sizes().waiting;
    }
    return { nodes: this.nodes.size, sessions: this.sessions.size, roots: this.watchedRoots.size, poolRunning: running, poolWaiting: waiting };
  }

  /**
   * A running child as a live run, for a cell in its own kernel: host.llm asks its model
   * (charged to the session's budget, refused once it is spent) under its signal, and the
   * call counts in its run's usage. Null once it ended.
   */
  hostRun(runId: string): LiveRun | null {
    const node = this.nodes.get(runId);
    if (!node?.calls || !node.live) return null;
    const { model, charge } = node.calls;
    return { runId, model, charge, signal: node.controller.signal, emit: (chunk) => node.emit?.(chunk), stopReason: () => (node.live ? null : node.failure) };
  }

  /** A running child's own stream (a cell in its own kernel reports its host calls there). */
  emitOf(runId: string): ((chunk: StreamChunk) => void) | undefined {
    return this.nodes.get(runId)?.emit ?? undefined;
  }

  private session(sessionId: string): SessionState {
    let state = this.sessions.get(sessionId);
    if (!state) {
      // The cap and the budget count the session's earlier children too (they are in the ledger),
      // so this state may be dropped once the session is idle and rebuilt on its next delegation.
      const earlier = this.deps.ledger().runs.listChildren(sessionId);
      const spent = { tokens: 0, usd: 0 };
      for (const r of earlier) {
        spent.tokens += (r.usage?.inputTokens ?? 0) + (r.usage?.outputTokens ?? 0);
        spent.usd += r.costUsd ?? 0;
      }
      state = { started: earlier.length, pool: new Pool(this.limits.concurrency), budget: new SharedBudget(this.limits, spent), rootChildren: new Map() };
      this.sessions.set(sessionId, state);
    }
    return state;
  }

  private parentOf(caller: DelegationCaller, readOnly = false): ParentInfo {
    if (!caller.runId) throw new DelegationRefusedError('not_running', 'child agents work only inside a run of the agent (not from a REPL cell).');
    const node = this.nodes.get(caller.runId);
    if (node) {
      if (!readOnly && TERMINAL.has(node.status)) throw new DelegationRefusedError('ended', `run ${node.runId} has ended (${node.status}).`);
      return { runId: node.runId, sessionId: node.sessionId, depth: node.depth, model: node.model, allowed: node.allowed, mayDelegate: node.mayDelegate, rootEmit: node.rootEmit, signal: node.controller.signal };
    }
    const live = this.deps.liveRuns.of(caller.sessionId);
    if (!live || live.runId !== caller.runId || !live.model) {
      throw new DelegationRefusedError('not_running', `run ${caller.runId} is not running; child agents start only from a running run.`);
    }
    this.watchRoot(caller.sessionId, live.runId, live.signal);
    return { runId: live.runId, sessionId: caller.sessionId, depth: 0, model: live.model, allowed: null, mayDelegate: live.delegation !== false, rootEmit: live.emit, signal: live.signal };
  }

  /** A user's run that delegates: Stop on it stops its children. */
  private watchRoot(sessionId: string, runId: string, signal: AbortSignal): void {
    if (this.watchedRoots.has(runId)) return;
    this.watchedRoots.add(runId);
    signal.addEventListener('abort', () => void this.endRoot(sessionId, runId), { once: true });
  }

  private childrenOf(runId: string, sessionId: string): string[] {
    const node = this.nodes.get(runId);
    if (node) return node.children;
    const state = this.session(sessionId);
    let ids = state.rootChildren.get(runId);
    if (!ids) state.rootChildren.set(runId, (ids = []));
    return ids;
  }

  private isAncestor(ancestor: string, node: ChildNode): boolean {
    for (let n: ChildNode | undefined = node; n; n = this.nodes.get(n.parentRunId)) if (n.parentRunId === ancestor) return true;
    return false;
  }

  /** The node and all its descendants, parents before children. */
  private subtree(node: ChildNode): ChildNode[] {
    const out = [node];
    for (let i = 0; i < out.length; i++) for (const id of out[i]!.children) out.push(this.nodes.get(id)!);
    return out;
  }

  /**
   * Ends nodes now: each one's generation closes (nothing it emits afterwards is kept, its
   * answer is never taken) and its run is aborted. Nodes that already ended keep their status.
   */
  private end(nodes: ChildNode[], status: 'stopped' | 'budget_exhausted', reason: string): void {
    for (const n of nodes) {
      if (TERMINAL.has(n.status)) continue;
      n.status = status;
      n.failure = reason;
      n.finishedAt = new Date().toISOString();
      this.publish(n);
      n.live = false;
      n.controller.abort();
    }
  }

  private start(parent: ParentInfo, state: SessionState, t: ChildTask): ChildNode {
    const allowed = t.tools ? new Set(t.tools) : parent.allowed;
    const record = this.deps.ledger().runs.startChild({
      sessionId: parent.sessionId,
      parentRunId: parent.runId,
      depth: parent.depth + 1,
      task: childTaskMessage(t.task, t.constraints),
      provider: parent.model.providerId,
      model: parent.model.model,
    });
    const node = newChildNode({ ...parent, allowed }, record.id, t);
    this.nodes.set(node.runId, node);
    this.childrenOf(parent.runId, parent.sessionId).push(node.runId);
    this.publish(node);
    node.done = this.run(node, state).catch((error: unknown) => {
      // A bug here must still end the child (and its waiters), never leave it running.
      if (!TERMINAL.has(node.status)) {
        node.status = 'failed';
        node.failure = `internal error: ${errorMessage(error)}`;
        node.finishedAt = new Date().toISOString();
        this.publish(node);
        node.live = false;
      }
    });
    return node;
  }

  private async run(node: ChildNode, state: SessionState): Promise<void> {
    const release = await state.pool.acquire(node.controller.signal);
    if (!release) {
      this.finishRecord(node, null);
      return;
    }
    let kernel: ChildKernel | null = null;
    let result: EngineResult | null = null;
    try {
      const spent = state.budget.exhausted();
      if (spent) {
        this.end([node], 'budget_exhausted', `Not started: ${spent}.`);
        return;
      }
      node.status = 'running';
      node.startedAt = new Date().toISOString();
      this.publish(node);
      kernel = this.deps.kernelFor(node.sessionId, node.runId);
      const emit = (node.emit = (chunk: StreamChunk) => {
        if (node.live) this.deps.append(node.sessionId, node.runId, transientDataChunk('child-event', { runId: node.runId, chunk: chunk as unknown as Record<string, unknown> }));
      });
      result = await runChildEngine(this.deps, this.limits, {
        node,
        kernel,
        budget: state.budget,
        emit,
        exhausted: (why) => this.end(this.subtree(node), 'budget_exhausted', `Ended: ${why}.`),
      });
      node.turns = result.turns;
      // Its own children end with it (nothing may outlive the run that started them).
      const below = node.children.flatMap((id) => this.subtree(this.nodes.get(id)!));
      this.end(below, 'stopped', 'Stopped: the child that started it ended.');
      await Promise.all(below.map((n) => n.done));
      if (node.live) {
        node.status = result.status === 'completed' ? 'completed' : 'failed';
        node.answer = result.status === 'completed' ? result.answer : null;
        node.failure = result.status === 'completed' ? null : (result.failureMessage ?? result.status);
        node.finishedAt = new Date().toISOString();
        this.publish(node);
        node.live = false;
      }
    } finally {
      release();
      try {
        await kernel?.release?.();
      } finally {
        this.finishRecord(node, result);
        this.deps.onRunEnd?.(node.sessionId, node.runId);
      }
    }
  }

  /** The child's run row: completed with its usage, or why it did not complete. */
  private finishRecord(node: ChildNode, result: EngineResult | null): void {
    try {
      this.deps.ledger().runs.finish(node.runId, finishOutcome(node, result));
    } catch {
      // The ledger closed under a shutdown: crash repair closes the row on the next open.
    }
  }

  /** The child's state in its root run's message (the tree the UI shows); dropped once that run ended. */
  private publish(node: ChildNode): void {
    if (!node.live) return;
    node.rootEmit(dataChunk('child', node.runId, childData(node)));
  }
}
