import { performance } from 'node:perf_hooks';
import { DEFAULT_LIMITS } from '../../src-main/core/delegation/limits';
import { validAnswer } from '../../tests/support/mockModel';
import { call, delegationHarness, runMessage } from '../../tests/core/delegation/harness';
import type { BenchSuite } from '../types';

const CHILDREN = 48;

/**
 * Issue 20: a user's run fans out to 48 children and collects them, with a zero-latency
 * in-memory model, over the real path: SessionRunner -> runEngine -> ToolExecutor ->
 * HostDispatcher (policy, audit in the ledger) -> delegate_task -> DelegationService
 * (ledger child rows, pool of 4, shared budget) -> runEngine per child (one tool call,
 * then finalize_response) -> collect_children. Times are taken inside the parent's model
 * calls: from its delegate_task call to reading the tool result (48 started), and to
 * reading the collect_children result (48 cited results back).
 */
const suite: BenchSuite = {
  name: 'delegation',
  async run() {
    const marks: Record<string, number> = {};
    const rssBefore = process.resourceUsage().maxRSS;
    const h = delegationHarness({
      reply: (a) => {
        if (a.depth > 0) return a.tools.length ? call('finalize_response', validAnswer) : call('list_children', {});
        const last = a.tools.at(-1);
        if (!last) {
          marks.delegate = performance.now();
          return call('delegate_task', { tasks: Array.from({ length: CHILDREN }, (_, i) => ({ task: `protein ${i + 1}` })) });
        }
        if (last.toolName === 'delegate_task') {
          marks.started = performance.now();
          return call('collect_children', {});
        }
        marks.collected = performance.now();
        if (!/\[completed\]/.test(last.content) || (last.content.match(/\[completed\]/g) ?? []).length !== CHILDREN) {
          throw new Error(`bench: collect_children did not return ${CHILDREN} completed children:\n${last.content.slice(0, 500)}`);
        }
        return call('finalize_response', validAnswer);
      },
    });
    try {
      const session = h.ledger.createSession('bench delegation');
      const t0 = performance.now();
      const run = await runMessage(h, session.id, `Survey ${CHILDREN} proteins, one child each.`);
      const total = performance.now() - t0;
      if (run.status !== 'completed') throw new Error(`bench: the parent run ended ${run.status}: ${run.failureMessage}`);
      const rssAfter = process.resourceUsage().maxRSS;
      const path = 'SessionRunner -> HostDispatcher -> delegate_task -> DelegationService -> runEngine x48 -> collect_children';
      return [
        { metric: `start ${CHILDREN} children (delegate_task call to its result; ${path})`, value: marks.started! - marks.delegate!, unit: 'ms' },
        { metric: `start and collect ${CHILDREN} cited results (delegate_task call to the collect_children result, pool of ${DEFAULT_LIMITS.concurrency})`, value: marks.collected! - marks.delegate!, unit: 'ms' },
        { metric: `whole parent run with ${CHILDREN} children (submit to finished record)`, value: total, unit: 'ms' },
        { metric: 'peak RSS of the process after the run', value: Math.round(rssAfter / 1024), unit: 'MiB' },
        { metric: 'peak RSS growth during the run', value: Math.round((rssAfter - rssBefore) / 1024), unit: 'MiB' },
      ];
    } finally {
      await h.close();
    }
  },
};
export default suite;
