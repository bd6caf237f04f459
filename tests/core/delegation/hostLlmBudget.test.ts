import { afterEach, describe, expect, it } from 'vitest';
import type { ChildKernel } from '../../../src-main/core/delegation/service';
import type { ActionContext } from '../../../src-main/core/engine/ports';
import { createCellProtocol } from '../../../src-main/core/runner/cellProtocol';
import { finish, validAnswer } from '../../support/mockModel';
import { call, childIds, delegationHarness, runMessage, type Harness } from './harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const finalize = () => call('finalize_response', validAnswer);
/** A host.llm request: no system prompt, one user message (the cell's prompt). */
const isHostLlm = (system: string | undefined) => system === undefined;

/**
 * A child's kernel whose cell calls host.llm `times` times, through the real cell protocol,
 * as the supervisor calls it for a cell in that child's own kernel (ctx.owner = its run id).
 */
function llmCellKernel(h: () => Harness, times: number, answers: string[]): ChildKernel {
  return {
    async executeCell(language, _code, ctx: ActionContext) {
      const cells = createCellProtocol({ liveRuns: h().liveRuns, evidenceFor: () => ({ missing: () => [] }), childRun: (id) => h().service.hostRun(id) });
      const lines: string[] = [];
      for (let i = 0; i < times; i++) {
        try {
          const out = (await cells.handlers.llm!('llm', { prompt: `summarise part ${i}` }, { sessionId: ctx.sessionId, language, generation: 'g1', cellId: `c${i}`, workspace: '/tmp', owner: ctx.runId, signal: ctx.signal })) as { text: string };
          lines.push(`ok ${out.text}`);
        } catch (error) {
          lines.push(`HostError ${(error as Error).message}`);
        }
      }
      answers.push(...lines);
      return { ok: true, summary: lines.join('\n') };
    },
  };
}

describe("host.llm from a child's cell is charged to the session's delegation budget", () => {
  it('counts in the shared budget and the child run usage; once spent, host.llm is refused and the child ends budget_exhausted; the parent is told', async () => {
    // Every model call costs 15 tokens (10 in, 5 out). Budget: 40 tokens for all children.
    const answers: string[] = [];
    const parentSaw: string[] = [];
    let hostCalls = 0;
    h = delegationHarness({
      limits: { concurrency: 1, tokenBudget: 40 },
      kernelFor: () => llmCellKernel(() => h!, 3, answers),
      reply: (a) => {
        if (isHostLlm(a.request.system)) {
          hostCalls++;
          return [{ type: 'text-delta', text: `summary ${hostCalls}` }, finish()];
        }
        if (a.depth === 1) return [{ type: 'text-delta', text: '```python\nfor p in parts: host.llm(prompt=p)\n```' }, finish()];
        parentSaw.splice(0, parentSaw.length, ...a.tools.map((t) => t.content));
        if (a.tools.length === 0) return call('delegate_task', { task: 'summarise the three parts with host.llm' });
        if (a.tools.length === 1) return call('collect_children', {});
        return finalize();
      },
    });
    const session = h.ledger.createSession('host.llm budget');
    const root = await runMessage(h, session.id, 'one child that asks the model from its cell');
    expect(root.status).toBe('completed');
    const [child] = childIds(parentSaw[0]!);
    // Child turn 1 (15) + host.llm 1 (15) = 30 < 40; host.llm 2 (15) = 45 passes the budget; host.llm 3 is refused.
    expect(hostCalls).toBe(2);
    expect(answers[0]).toBe('ok summary 1');
    expect(answers[1]).toBe('ok summary 2');
    expect(answers[2]).toMatch(/^HostError host\.llm got no answer: Ended: the session's delegation budget is spent \(45 of 40 tokens\); raise OPENAI4S_DELEGATION_TOKEN_BUDGET/);
    expect(parentSaw[1]).toMatch(new RegExp(`child ${child} \\[budget_exhausted\\]`));
    expect(parentSaw[1]).toMatch(/the session's delegation budget is spent \(45 of 40 tokens\)/);
    // The child's run row holds its host.llm calls too, so the budget rebuilt from the ledger sees them.
    const [row] = h.ledger.runs.listChildren(session.id);
    expect(row).toMatchObject({ status: 'failed', failureCode: 'budget_exhausted' });
    expect(row!.usage).toEqual({ inputTokens: 30, outputTokens: 15 });
  });

  it("a cell of a child that has ended cannot reach the model through the user's run", async () => {
    h = delegationHarness({ reply: () => finalize() });
    const cells = createCellProtocol({ liveRuns: h.liveRuns, evidenceFor: () => ({ missing: () => [] }), childRun: (id) => h!.service.hostRun(id) });
    // A live user's run exists in the session: the old code answered every cell from it.
    const controller = new AbortController();
    h.liveRuns.start('s1', { runId: 'root', model: h.model, emit: () => undefined, signal: controller.signal });
    await expect(cells.handlers.llm!('llm', { prompt: 'hi' }, { sessionId: 's1', language: 'python', generation: 'g', cellId: 'c', workspace: '/tmp', owner: 'gone-child' })).rejects.toThrow(
      'host.llm: child run gone-child has ended, so it makes no more model calls',
    );
    expect(h.model.calls).toBe(0);
  });

  it("host.llm from the user's run's cell counts in that run's usage (not the children's budget)", async () => {
    let cells: ReturnType<typeof createCellProtocol> | null = null;
    h = delegationHarness({
      rootKernel: {
        async executeCell(language, _code, ctx) {
          const out = (await cells!.handlers.llm!('llm', { prompt: 'classify this' }, { sessionId: ctx.sessionId, language, generation: 'g', cellId: 'c', workspace: '/tmp', signal: ctx.signal })) as { text: string };
          return { ok: true, summary: out.text };
        },
      },
      reply: (a) => {
        if (isHostLlm(a.request.system)) return [{ type: 'text-delta', text: 'kinase' }, finish()];
        const cellsSeen = a.request.messages.filter((m) => m.role === 'user' && m.content.startsWith('Cell result')).length;
        return cellsSeen ? finalize() : [{ type: 'text-delta', text: '```python\nhost.llm(prompt="classify this")\n```' }, finish()];
      },
    });
    cells = createCellProtocol({ liveRuns: h.liveRuns, evidenceFor: () => ({ missing: () => [] }), childRun: (id) => h!.service.hostRun(id) });
    const session = h.ledger.createSession('root host.llm');
    const root = await runMessage(h, session.id, 'classify with host.llm');
    expect(root.status).toBe('completed');
    // Two agent turns and one host.llm call, 10 in and 5 out each.
    expect(root.usage).toEqual({ inputTokens: 30, outputTokens: 15 });
  });
});
