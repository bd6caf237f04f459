import { z } from 'zod';
import { dataChunk, thinkingStepStatuses, type ThinkingStepData } from '../../../../src-preload/contract/dataParts';
import type { StreamChunk } from '../../../../src-preload/contract/stream';
import { MAX_PLAN_STEPS, planText, updatePlanStep, writePlan } from '../../memory/plan';
import { defineTool, type Tool, type ToolContext } from '../define';

/** Where the plan lives (the ledger's plan snapshots) and how a tool reaches its run's stream. */
export interface PlanToolDeps {
  load(sessionId: string): ThinkingStepData[];
  save(sessionId: string, runId: string | null, steps: readonly ThinkingStepData[]): void;
  /** The stream of the session's live run, if one is running. */
  emitOf(sessionId: string): ((chunk: StreamChunk) => void) | undefined;
  now?: () => string;
}

const stepId = z.string().regex(/^[A-Za-z0-9_.-]{1,40}$/, 'a short step id: letters, digits, "_", "." or "-"');
const status = z.enum(thinkingStepStatuses);

/**
 * The visible plan (issue 19): write_todos sets the checklist, update_plan_step moves one
 * step. Every step of the plan after a change is sent as a `data-thinking-step` part
 * (`kind: "plan"`, part id `plan-<id>`), so the message holds the whole current plan and
 * any AI SDK client shows it; the ledger keeps the plan so later runs continue it.
 */
export function planTools(deps: PlanToolDeps): Tool[] {
  const now = deps.now ?? (() => new Date().toISOString());
  const publish = (ctx: ToolContext, plan: readonly ThinkingStepData[]) => {
    // A tool call streams through the engine (which nests its activity under the running
    // plan step); a cell's host call through the session's live run.
    const emit = ctx.emit ?? deps.emitOf(ctx.sessionId);
    if (emit) for (const step of plan) emit(dataChunk('thinking-step', step.id, step));
  };
  const writeTodos = defineTool({
    name: 'write_todos',
    description: 'Write or rewrite your plan as a visible checklist (the user sees it live). Mark the step you start in_progress.',
    input: z
      .object({
        todos: z
          .array(
            z
              .object({
                id: stepId.optional(),
                title: z.string().min(1).max(200),
                status: status.optional(),
                parent: stepId.optional().describe('id of the step this is a sub-step of'),
              })
              .strict(),
          )
          .min(1)
          .max(MAX_PLAN_STEPS),
      })
      .strict(),
    sideEffect: 'write',
    defaultPolicy: 'allow',
    onDemand: true,
    hostMethods: ['plan.write'],
    resourceKeys: () => ['plan'],
    target: (a) => `${a.todos.length} steps`,
    async execute(a, ctx) {
      const plan = writePlan(deps.load(ctx.sessionId), a.todos, now());
      deps.save(ctx.sessionId, ctx.runId, plan);
      publish(ctx, plan);
      return { text: `Plan saved:\n${planText(plan)}`, output: { plan } };
    },
  });
  const updateStep = defineTool({
    name: 'update_plan_step',
    description: 'Set one plan step\'s status (pending, in_progress, completed, failed), with an optional short note.',
    input: z.object({ id: stepId, status, note: z.string().max(300).optional() }).strict(),
    sideEffect: 'write',
    defaultPolicy: 'allow',
    onDemand: true,
    hostMethods: ['plan.update'],
    resourceKeys: () => ['plan'],
    target: (a) => `${a.id}: ${a.status}`,
    async execute(a, ctx) {
      const { plan, step } = updatePlanStep(deps.load(ctx.sessionId), a, now());
      deps.save(ctx.sessionId, ctx.runId, plan);
      publish(ctx, plan);
      return { text: `Step ${a.id} is ${step.status}.\n${planText(plan)}`, output: { plan } };
    },
  });
  return [writeTodos, updateStep];
}
