import type { StreamChunk } from '../../../src-preload/contract/stream';
import { runEngine } from '../engine/loop';
import type { ActionExecutorPort, ActionGuardPort, ContextPolicyPort, EngineResult, EvidenceLookupPort, KernelPort } from '../engine/ports';
import type { Cost, LanguageModelPort, LlmTool, Usage } from '../llm/types';
import { responsiveModel } from '../runner/responsiveModel';
import type { SharedBudget } from './budget';
import type { ChildNode } from './childNode';
import { budgetedModel, childPreamble, childTaskMessage, childTools, restrictedExecutor, steeredContext } from './childPorts';
import type { DelegationLimits } from './limits';

/** What a child's engine run is built from: the same ports as a user's run, narrowed for the child. */
export interface ChildEngineDeps {
  executor: ActionExecutorPort;
  evidenceFor(sessionId: string): EvidenceLookupPort;
  /** The tools a run is offered before each request (tools it found with find_tools join). */
  tools(runId: string): readonly LlmTool[];
  systemPrompt(): string;
  /** The biosecurity guard of a run (the runner's own): a child is screened as its parent is. */
  guard?(run: { sessionId: string; runId: string; model: LanguageModelPort }): ActionGuardPort | undefined;
  /** The context policy of a run (archive, compaction); absent: the engine's budget policy. */
  contextPolicy?(run: { sessionId: string; runId: string; model: LanguageModelPort; request: string }): ContextPolicyPort;
  /** How long a child's model stream may hold the event loop (runner/responsiveModel.ts); tests pass 0. */
  streamSliceMs?: number;
}

/** The child's own run of the engine, and what ends it from outside. */
export interface ChildRun {
  node: ChildNode;
  kernel: KernelPort;
  budget: SharedBudget;
  /** Where its stream goes (the parent's message, as child events). */
  emit: (chunk: StreamChunk) => void;
  /** Ends the child's subtree (the budget ran out before a model call). */
  exhausted: (why: string) => void;
}

/**
 * Runs one child's engine loop: its task as the only user turn, its tools never wider than
 * its parent's (delegation only while the depth allows), every model call it makes charged
 * to the session's budget (its turns, its screener's calls, its compaction summaries and
 * host.llm from its cells). Once the budget is spent the next call is refused and
 * `exhausted` ends the subtree. While it runs, `node.calls` lends its cells the charged
 * model and the run's meter.
 */
export async function runChildEngine(deps: ChildEngineDeps, limits: DelegationLimits, run: ChildRun): Promise<EngineResult> {
  const { node, budget } = run;
  const task = childTaskMessage(node.task, node.constraints);
  const mayCall = () => {
    const why = budget.exhausted();
    if (why) run.exhausted(why);
    return !why && node.live;
  };
  const charged = budgetedModel(node.model, budget, mayCall);
  const guard = deps.guard?.({ sessionId: node.sessionId, runId: node.runId, model: charged });
  const context = deps.contextPolicy?.({ sessionId: node.sessionId, runId: node.runId, model: charged, request: task });
  const model = budgetedModel(responsiveModel(node.model, deps.streamSliceMs), budget, mayCall);
  let meter: ((usage: Usage, cost: Cost | null) => void) | null = null;
  node.calls = { model: charged, charge: (usage, cost) => meter?.(usage, cost) };
  try {
    return await runEngine(
      {
        model,
        executor: restrictedExecutor(deps.executor, node.allowed),
        kernel: run.kernel,
        evidence: deps.evidenceFor(node.sessionId),
        context: steeredContext(node.inbox, context),
        sink: { emit: run.emit },
        ...(guard ? { guard } : {}),
      },
      {
        sessionId: node.sessionId,
        runId: node.runId,
        system: `${deps.systemPrompt()}\n\n${childPreamble(node.depth, limits.maxDepth)}`,
        tools: () => childTools(deps.tools(node.runId), node.allowed, node.mayDelegate && node.depth < limits.maxDepth),
        history: [{ role: 'user', content: task }],
        signal: node.controller.signal,
        maxTurns: limits.maxTurns,
        startMetadata: { provider: node.model.providerId, model: node.model.model, parentRunId: node.parentRunId, depth: node.depth },
        bindCharge: (charge) => {
          meter = charge;
        },
      },
    );
  } finally {
    node.calls = null;
  }
}
