import { performance } from 'node:perf_hooks';
import type { RunRecord } from '../../src-preload/contract/sessions';
import { DEFAULT_LIMITS } from '../../src-main/core/delegation/limits';
import { startScriptedModel } from '../../src-main/core/llm/scripted/server';
import type { StaticStep } from '../../src-main/core/llm/scripted/script';
import { validAnswer } from '../../tests/support/mockModel';
import { startProductionApp } from '../support/productionCore';
import type { BenchSuite } from '../types';

const CHILDREN = 48;

interface OpenAiMessage {
  role: string;
  content?: string | null;
  tool_call_id?: string;
  tool_calls?: { id: string; function: { name: string } }[];
}

const toolCall = (name: string, args: unknown): StaticStep => ({ reply: [{ toolCall: { name, arguments: args as Record<string, unknown> } }] });

/**
 * Issue 20: a user's run fans out to 48 children and collects them, over the production
 * path: the router's `run.submit` -> `createCore`'s SessionRunner -> runEngine -> the
 * OpenAI provider reading SSE from a scripted model on loopback -> HostDispatcher (policy,
 * audit in the ledger) -> delegate_task -> the DelegationService core.ts wires (ledger
 * child rows, pool of 4, shared budget, the runner's biosecurity guard and context policy,
 * the real system prompt) -> runEngine per child (one tool call, then finalize_response)
 * -> collect_children. The scripted model answers in this process (it routes each request
 * by who asks, which a model in its own process cannot), so its SSE writing is in the times.
 * Times are taken inside the parent's model requests: from its delegate_task reply to
 * reading the tool result (48 started), and to reading the collect_children result.
 */
const suite: BenchSuite = {
  name: 'delegation',
  async run() {
    const marks: Record<string, number> = {};
    const play = (body: unknown): StaticStep => {
      const messages = (body as { messages: OpenAiMessage[] }).messages;
      const names = new Map<string, string>();
      for (const m of messages) for (const c of m.tool_calls ?? []) names.set(c.id, c.function.name);
      const results = messages.filter((m) => m.role === 'tool');
      const last = results.at(-1);
      const system = messages.find((m) => m.role === 'system')?.content ?? '';
      if (system.includes('## You are a child agent')) return results.length ? toolCall('finalize_response', validAnswer) : toolCall('list_children', {});
      if (!last) {
        marks.delegate = performance.now();
        return toolCall('delegate_task', { tasks: Array.from({ length: CHILDREN }, (_, i) => ({ task: `protein ${i + 1}` })) });
      }
      if (names.get(last.tool_call_id ?? '') === 'delegate_task') {
        marks.started = performance.now();
        return toolCall('collect_children', {});
      }
      marks.collected = performance.now();
      const completed = (last.content ?? '').match(/\[completed\]/g)?.length ?? 0;
      if (completed !== CHILDREN) throw new Error(`bench: collect_children returned ${completed} completed children, not ${CHILDREN}:\n${(last.content ?? '').slice(0, 500)}`);
      return toolCall('finalize_response', validAnswer);
    };
    const model = await startScriptedModel([play], { loop: true });
    const rssBefore = process.resourceUsage().maxRSS;
    const app = startProductionApp({ OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_BASE_URL: model.baseUrl, OPENAI4S_OPENAI_API_KEY: 'bench', OPENAI4S_OPENAI_MODEL: 'scripted-model' });
    try {
      const session = await app.call<{ id: string }>('session.create', { title: 'bench delegation' });
      const t0 = performance.now();
      const submitted = await app.call<RunRecord>('run.submit', { sessionId: session.id, mutationId: 'bench-delegation', message: `Survey ${CHILDREN} proteins, one child each.` });
      const run = await app.core.runner.result(submitted.id);
      const total = performance.now() - t0;
      if (run.status !== 'completed') throw new Error(`bench: the parent run ended ${run.status}: ${run.failureMessage}`);
      const rssAfter = process.resourceUsage().maxRSS;
      const path = 'run.submit -> SessionRunner -> HostDispatcher -> delegate_task -> DelegationService -> runEngine x48 -> collect_children, scripted SSE model';
      return [
        { metric: `start ${CHILDREN} children (delegate_task call to its result; ${path})`, value: marks.started! - marks.delegate!, unit: 'ms' },
        { metric: `start and collect ${CHILDREN} cited results (delegate_task call to the collect_children result, pool of ${DEFAULT_LIMITS.concurrency})`, value: marks.collected! - marks.delegate!, unit: 'ms' },
        { metric: `whole parent run with ${CHILDREN} children (run.submit to finished record)`, value: total, unit: 'ms' },
        { metric: 'peak RSS of the process after the run', value: Math.round(rssAfter / 1024), unit: 'MiB' },
        { metric: 'peak RSS growth during the run', value: Math.round((rssAfter - rssBefore) / 1024), unit: 'MiB' },
      ];
    } finally {
      await app.close();
      await model.close();
    }
  },
};
export default suite;
