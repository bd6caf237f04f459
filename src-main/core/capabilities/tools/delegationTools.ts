import { z } from 'zod';
import { defineTool, type Tool } from '../define';
import type { ChildView, DelegationPort } from '../delegationPort';

/** The delegation tools, by name (a child at the depth limit is not offered them). */
export const DELEGATION_TOOLS = ['delegate_task', 'list_children', 'collect_children', 'stop_child', 'send_child_message'] as const;

const childId = z.string().min(1).max(100).describe('A child id returned by delegate_task.');

const taskSchema = z
  .object({
    task: z.string().trim().min(1).max(8_000).describe('The whole task: the child sees nothing of your conversation.'),
    constraints: z.string().max(4_000).optional().describe('Rules the child must keep (sources, scope, format).'),
    tools: z.array(z.string().min(1).max(100)).max(100).optional().describe('Tools the child may use (a subset of yours); default: yours.'),
  })
  .strict();

function claimLines(view: ChildView): string[] {
  if (!view.answer) return [];
  return view.answer.claims.map((c) => `  - [${c.basis}] ${c.statement}${c.evidence.length ? ` (evidence: ${c.evidence.join(', ')})` : ''}`);
}

/** What the parent model reads about its children: status, and each cited result in full. */
export function describeChildren(views: readonly ChildView[]): string {
  if (!views.length) return 'No children.';
  return views
    .map((v) => {
      const head = `child ${v.id} [${v.status}] depth ${v.depth}, ${v.turns} turns, ${(v.elapsedMs / 1000).toFixed(1)} s: ${v.task.slice(0, 200)}`;
      const body = v.answer ? [`  summary: ${v.answer.summary}`, ...claimLines(v)] : v.failure ? [`  ${v.failure}`] : [];
      return [head, ...body].join('\n');
    })
    .join('\n');
}

const viewsOutput = (views: ChildView[]) => ({ children: views });

/**
 * delegate_task, list_children, collect_children, stop_child, send_child_message: on
 * demand (found with find_tools), and callable from cells as host.delegate, host.collect,
 * host.stop_child, host.send_message (and host.list_children).
 */
export function delegationTools(port: () => DelegationPort): Tool[] {
  const caller = (ctx: { sessionId: string; runId: string | null; signal: AbortSignal }) => ({ sessionId: ctx.sessionId, runId: ctx.runId, signal: ctx.signal });
  return [
    defineTool({
      name: 'delegate_task',
      description:
        'Start child agents that work in parallel on separate tasks (e.g. one per protein or dataset) and return cited results; collect them with collect_children. Give either task or tasks.',
      input: z
        .object({
          task: z.string().trim().min(1).max(8_000).optional().describe('One task (the whole task: the child sees nothing of your conversation).'),
          constraints: z.string().max(4_000).optional(),
          tools: z.array(z.string().min(1).max(100)).max(100).optional(),
          tasks: z.array(taskSchema).min(1).max(64).optional().describe('Several children at once.'),
        })
        .strict()
        .refine((a) => (a.task === undefined) !== (a.tasks === undefined), 'give either task or tasks, not both and not neither'),
      sideEffect: 'exec',
      defaultPolicy: 'allow',
      onDemand: true,
      hostMethods: ['delegate'],
      resourceKeys: () => [],
      target: (a) => (a.tasks ? `${a.tasks.length} tasks` : (a.task ?? '').slice(0, 80)),
      async execute(a, ctx) {
        const tasks = a.tasks ?? [{ task: a.task!, ...(a.constraints ? { constraints: a.constraints } : {}), ...(a.tools ? { tools: a.tools } : {}) }];
        const views = await port().delegate(caller(ctx), tasks);
        return {
          text: `Started ${views.length} child agent${views.length === 1 ? '' : 's'}:\n${describeChildren(views)}\nCall collect_children to wait for their cited results.`,
          output: viewsOutput(views),
        };
      },
    }),
    defineTool({
      name: 'list_children',
      description: 'List your child agents with their status and elapsed time (does not wait).',
      input: z.object({}).strict(),
      sideEffect: 'read',
      defaultPolicy: 'allow',
      onDemand: true,
      hostMethods: ['list_children'],
      resourceKeys: () => [],
      target: () => 'children',
      async execute(_a, ctx) {
        const views = port().list(caller(ctx));
        return { text: describeChildren(views), output: viewsOutput(views) };
      },
    }),
    defineTool({
      name: 'collect_children',
      description: "Wait for your child agents (all, or the ids given) to end and return each one's status and cited result; cite their evidence ids in your answer.",
      input: z.object({ ids: z.array(childId).max(1_000).optional(), wait: z.boolean().optional().describe('false: return at once') }).strict(),
      sideEffect: 'read',
      defaultPolicy: 'allow',
      onDemand: true,
      hostMethods: ['collect'],
      resourceKeys: () => [],
      target: (a) => (a.ids ? a.ids.join(',').slice(0, 120) : 'all children'),
      maxOutputBytes: 64 * 1024,
      async execute(a, ctx) {
        const views = await port().collect(caller(ctx), { ...(a.ids ? { ids: a.ids } : {}), ...(a.wait === undefined ? {} : { wait: a.wait }) });
        return { text: describeChildren(views), output: viewsOutput(views) };
      },
    }),
    defineTool({
      name: 'stop_child',
      description: 'Stop a child agent and everything it started; nothing it produces afterwards is used.',
      input: z.object({ id: childId }).strict(),
      sideEffect: 'exec',
      defaultPolicy: 'allow',
      onDemand: true,
      hostMethods: ['stop_child'],
      resourceKeys: (a) => [`child:${a.id}`],
      target: (a) => a.id,
      async execute(a, ctx) {
        const views = await port().stop(caller(ctx), a.id);
        return { text: `Stopped ${views.length} run${views.length === 1 ? '' : 's'}:\n${describeChildren(views)}`, output: viewsOutput(views) };
      },
    }),
    defineTool({
      name: 'send_child_message',
      description: 'Send a running child agent a message (a correction or more detail); it reads it before its next step.',
      input: z.object({ id: childId, message: z.string().trim().min(1).max(4_000) }).strict(),
      sideEffect: 'exec',
      defaultPolicy: 'allow',
      onDemand: true,
      hostMethods: ['send_message'],
      resourceKeys: (a) => [`child:${a.id}`],
      target: (a) => a.id,
      async execute(a, ctx) {
        const view = port().send(caller(ctx), a.id, a.message);
        return { text: `Sent to child ${view.id} [${view.status}].`, output: viewsOutput([view]) };
      },
    }),
  ];
}
