import type { CitedAnswer } from '../../../src-preload/contract/answer';
import type { ChildData, ChildStatus } from '../../../src-preload/contract/dataParts';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import type { ChildView } from '../capabilities/delegationPort';
import type { EngineResult } from '../engine/ports';
import type { FinishRun } from '../ledger/runsRepo';
import type { Cost, LanguageModelPort, Usage } from '../llm/types';

/** One child agent. Its `live` flag is its generation: once false, nothing it produces is used. */
export interface ChildNode {
  runId: string;
  sessionId: string;
  parentRunId: string;
  depth: number;
  task: string;
  constraints: string | undefined;
  allowed: ReadonlySet<string> | null;
  /** The composer's switch of the user's run, inherited by the whole tree (the depth limit is checked apart). */
  mayDelegate: boolean;
  model: LanguageModelPort;
  /** The stream of the user's run at the root of this tree (every descendant is a part of its message). */
  rootEmit: (chunk: StreamChunk) => void;
  status: ChildStatus;
  startedAt: string | null;
  finishedAt: string | null;
  turns: number;
  answer: CitedAnswer | null;
  failure: string | null;
  controller: AbortController;
  live: boolean;
  inbox: string[];
  children: string[];
  done: Promise<void>;
  /** The child's own stream while it runs (host calls from its cells report there). */
  emit: ((chunk: StreamChunk) => void) | null;
  /** While it runs: its model charged to the session's budget, and its run's meter (host.llm from its cells uses both). */
  calls: { model: LanguageModelPort; charge: (usage: Usage, cost: Cost | null) => void } | null;
}

/** What a new child takes from its parent (tools already narrowed to what it may use). */
export interface ChildOrigin {
  runId: string;
  sessionId: string;
  depth: number;
  model: LanguageModelPort;
  allowed: ReadonlySet<string> | null;
  mayDelegate: boolean;
  rootEmit: (chunk: StreamChunk) => void;
}

/** A child just recorded as run `runId` under `parent`: queued, live, with nothing yet. */
export function newChildNode(parent: ChildOrigin, runId: string, task: { task: string; constraints?: string | undefined }): ChildNode {
  return {
    runId,
    sessionId: parent.sessionId,
    parentRunId: parent.runId,
    depth: parent.depth + 1,
    task: task.task,
    constraints: task.constraints,
    allowed: parent.allowed,
    mayDelegate: parent.mayDelegate,
    model: parent.model,
    rootEmit: parent.rootEmit,
    status: 'queued',
    startedAt: null,
    finishedAt: null,
    turns: 0,
    answer: null,
    failure: null,
    controller: new AbortController(),
    live: true,
    inbox: [],
    children: [],
    done: Promise.resolve(),
    emit: null,
    calls: null,
  };
}

/** The statuses a child never leaves. */
export const TERMINAL: ReadonlySet<ChildStatus> = new Set(['completed', 'failed', 'stopped', 'budget_exhausted']);

/** The evidence ids a child's answer cites (session evidence: its parent may cite them). */
export function evidenceOf(node: ChildNode): string[] {
  return node.answer ? [...new Set(node.answer.claims.flatMap((c) => c.evidence))] : [];
}

/** The child as a `data-child` part of its root run's message (bounded texts). */
export function childData(node: ChildNode): ChildData {
  return {
    runId: node.runId,
    parentRunId: node.parentRunId,
    depth: node.depth,
    task: node.task.slice(0, 500),
    status: node.status,
    ...(node.startedAt ? { startedAt: node.startedAt } : {}),
    ...(node.finishedAt ? { finishedAt: node.finishedAt } : {}),
    turns: node.turns,
    ...(node.answer ? { summary: node.answer.summary.slice(0, 1_000) } : {}),
    ...(node.failure ? { failure: node.failure.slice(0, 1_000) } : {}),
    evidence: evidenceOf(node),
  };
}

/** The child as its parent sees it (tools and host calls): status and the whole cited answer. */
export function childView(node: ChildNode): ChildView {
  const start = node.startedAt ? Date.parse(node.startedAt) : null;
  const finish = node.finishedAt ? Date.parse(node.finishedAt) : Date.now();
  return {
    id: node.runId,
    parentRunId: node.parentRunId,
    depth: node.depth,
    task: node.task,
    status: node.status,
    startedAt: node.startedAt,
    finishedAt: node.finishedAt,
    elapsedMs: start === null ? 0 : Math.max(0, finish - start),
    turns: node.turns,
    answer: node.answer,
    failure: node.failure,
    evidence: evidenceOf(node),
  };
}

/** The child's run row when it ends: completed with its usage, or why it did not complete. */
export function finishOutcome(node: ChildNode, result: EngineResult | null): FinishRun {
  const usage = result
    ? {
        ...(result.usage.promptTokens !== null ? { inputTokens: result.usage.promptTokens } : {}),
        ...(result.usage.completionTokens !== null ? { outputTokens: result.usage.completionTokens } : {}),
      }
    : undefined;
  const cost = result?.cost?.currency === 'USD' ? { costUsd: result.cost.amount } : {};
  const base = { ...(usage ? { usage } : {}), ...cost };
  if (node.status === 'completed') return { status: 'completed', ...base };
  if (node.status === 'budget_exhausted') return { status: 'failed', failureCode: 'budget_exhausted', failureMessage: node.failure ?? 'budget exhausted', ...base };
  if (node.status === 'stopped') return { status: 'cancelled', failureCode: 'cancelled', failureMessage: node.failure ?? 'stopped', ...base };
  return { status: 'failed', failureCode: result?.failureCode ?? 'internal', failureMessage: node.failure ?? 'failed', ...base };
}
