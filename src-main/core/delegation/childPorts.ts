import { budgetContextPolicy } from '../engine/contextPolicy';
import type { ActionExecutorPort, ContextPolicyPort } from '../engine/ports';
import type { LanguageModelPort, LlmMessage, LlmRequest, LlmTool, Part } from '../llm/types';
import { DELEGATION_TOOLS } from '../capabilities/tools/delegationTools';
import type { SharedBudget } from './budget';

/** What a child is told about its place: the task comes from a parent agent, and how to answer. */
export function childPreamble(depth: number, maxDepth: number): string {
  const delegation =
    depth >= maxDepth
      ? `You are at the deepest level (${depth} of ${maxDepth}): you cannot delegate.`
      : `You may delegate parts of it (depth ${depth} of ${maxDepth}) only if they are truly separate.`;
  return [
    '## You are a child agent',
    'A parent agent gave you one task. Do only that task, keep the parent\'s constraints, and end with finalize_response:',
    'a cited answer whose claims cite the evidence ids you gathered (the parent cites them in turn).',
    delegation,
  ].join('\n');
}

/** The child's first (and only user) message: the task and the parent's constraints. */
export function childTaskMessage(task: string, constraints: string | undefined): string {
  return constraints?.trim() ? `${task}\n\nConstraints from the parent agent (keep them):\n${constraints.trim()}` : task;
}

/**
 * The parent's model for a child, charged to the session's shared budget. Before each
 * request it asks `beforeCall`, which ends the child (budget_exhausted) once the budget is
 * spent; that request then reports an abort, as a stopped run does.
 */
export function budgetedModel(model: LanguageModelPort, budget: SharedBudget, beforeCall: () => boolean): LanguageModelPort {
  return {
    providerId: model.providerId,
    model: model.model,
    baseUrl: model.baseUrl,
    async *stream(request: LlmRequest): AsyncIterable<Part> {
      if (!beforeCall()) {
        yield { type: 'finish', reason: 'aborted', rawReason: null, usage: { promptTokens: null, completionTokens: null, reasoningTokens: null, cachedTokens: null }, cost: null, model: model.model };
        return;
      }
      for await (const part of model.stream(request)) {
        if (part.type === 'finish') budget.charge(part.usage, part.cost);
        yield part;
      }
    },
  };
}

/**
 * The child's context: its history, with the parent's messages (send_child_message)
 * joined where they arrived, then the engine's usual budget policy. A message is placed
 * after the history as it stood when the child first saw it, so it stays there on later turns.
 */
export function steeredContext(inbox: string[], inner: ContextPolicyPort | undefined): ContextPolicyPort {
  const policy = inner ?? budgetContextPolicy();
  const placed: { at: number; message: LlmMessage }[] = [];
  // Whatever else the engine passes (the request being built) goes to the inner policy unchanged.
  const prepare = (history: readonly LlmMessage[], ...rest: unknown[]) => {
    for (const text of inbox.splice(0)) placed.push({ at: history.length, message: { role: 'user', content: `Message from the parent agent:\n${text}` } });
    const call = policy.prepare.bind(policy) as (h: readonly LlmMessage[], ...r: unknown[]) => ReturnType<ContextPolicyPort['prepare']>;
    if (!placed.length) return call(history, ...rest);
    const merged: LlmMessage[] = [];
    let next = 0;
    for (let i = 0; i <= history.length; i++) {
      while (next < placed.length && placed[next]!.at === i) merged.push(placed[next++]!.message);
      if (i < history.length) merged.push(history[i]!);
    }
    return call(merged, ...rest);
  };
  return { prepare: prepare as ContextPolicyPort['prepare'] };
}

/**
 * The tools a child is offered: the parent's allow-list if it gave one (never wider than
 * the parent's own), without the delegation tools when it may not delegate.
 */
export function childTools(all: readonly LlmTool[], allowed: ReadonlySet<string> | null, mayDelegate: boolean): LlmTool[] {
  const delegation = new Set<string>(DELEGATION_TOOLS);
  return all.filter((t) => (!allowed || allowed.has(t.name)) && (mayDelegate || !delegation.has(t.name)));
}

/**
 * The host's executor for a child limited to its allow-list: a call outside it is answered
 * (and audited as not run) without reaching the dispatcher.
 */
export function restrictedExecutor(inner: ActionExecutorPort, allowed: ReadonlySet<string> | null): ActionExecutorPort {
  if (!allowed) return inner;
  return {
    async executeBatch(calls, ctx) {
      const refused = calls.filter((c) => !allowed.has(c.name));
      const runnable = calls.filter((c) => allowed.has(c.name));
      const answer = (name: string) => `Not executed: the parent agent did not allow ${name} for this child (allowed: ${[...allowed].join(', ') || 'none'}).`;
      if (refused.length) await inner.recordUnrun?.(refused.map((call) => ({ call, answer: answer(call.name) })), ctx);
      const ran = runnable.length ? await inner.executeBatch(runnable, ctx) : [];
      return [...ran, ...refused.map((c) => ({ toolCallId: c.id, toolName: c.name, isError: true, errorCode: 'not_allowed' as const, content: answer(c.name) }))];
    },
    ...(inner.recordUnrun ? { recordUnrun: (calls, ctx) => inner.recordUnrun!(calls, ctx) } : {}),
  };
}
