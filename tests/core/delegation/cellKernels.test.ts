import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CitedAnswer } from '../../../src-preload/contract/answer';
import { createCore } from '../../../src-main/core/core';
import { startScriptedModel, type ScriptedModel } from '../../../src-main/core/llm/scripted/server';
import type { StaticStep } from '../../../src-main/core/llm/scripted/script';
import { scriptedCoreEnv } from '../../support/scriptedCore';

/**
 * Delegation from a Python cell, with the real sandboxed kernel: the parent's cell fans out
 * with host.delegate and gathers with host.collect; each child computes in its own kernel
 * generation of the session and its cells call the host as the child's own run.
 */

interface Msg {
  role: string;
  content?: string | null;
}

const cell = (code: string): StaticStep => ({ reply: [{ text: `\`\`\`python\n${code}\n\`\`\`` }] });
const finalize = (summary: string, evidence: string[]): StaticStep => ({
  reply: [
    {
      toolCall: {
        name: 'finalize_response',
        arguments: {
          summary,
          claims: [{ statement: summary, basis: 'computed', evidence, uncertainty: 'low' }],
          limitations: ['A small check, not a study.'],
          next_steps: [],
          suggested_questions: [],
          artifacts: [],
          completion_bullets: ['done'],
        },
      },
    },
  ],
});

const cellResults = (messages: Msg[]) => messages.filter((m) => m.role === 'user' && (m.content ?? '').startsWith('Cell result')).map((m) => m.content ?? '');
const evidenceIds = (text: string) => [...new Set([...text.matchAll(/\bev_[A-Za-z0-9_-]+/g)].map((m) => m[0]))];

/** What a host.llm call costs in this script: large enough to be seen in the child's usage. */
const HOST_LLM_PROMPT_TOKENS = 5_000;

function play(body: unknown): StaticStep {
  const messages = (body as { messages: Msg[] }).messages;
  const system = messages.find((m) => m.role === 'system')?.content ?? '';
  const task = messages.find((m) => m.role === 'user')?.content ?? '';
  const results = cellResults(messages);
  // host.llm from a cell: no system prompt, one user message.
  if (!system && task.startsWith('Name the number')) return { reply: [{ text: 'forty-two' }], usage: { prompt_tokens: HOST_LLM_PROMPT_TOKENS, completion_tokens: 3 } };
  if (system.includes('## You are a child agent')) {
    const expr = task.includes('6*7') ? '6*7' : '2**10';
    if (!results.length) {
      // Its own kernel: a different generation from the parent's; its host calls are its own run's (no children).
      // host.llm asks as the child: charged to the session's delegation budget and the child's usage.
      const ask = expr === '6*7' ? '\nprint("llm says", host.llm(prompt="Name the number 42 in words.")["text"])' : '';
      return cell(`import os\nprint("value", ${expr})\nprint("children of this run:", host.list_children()["text"])${ask}`);
    }
    return finalize(`${expr} computed by a child`, evidenceIds(results[0]!).slice(0, 1));
  }
  if (!results.length) {
    return cell('started = host.delegate(tasks=[{"task": "child A: compute 6*7"}, {"task": "child B: compute 2**10"}])\nprint(len(started["output"]["children"]), "started")');
  }
  if (results.length === 1) return cell('res = host.collect()\nprint(res["text"])');
  return finalize('Both children computed their values.', evidenceIds(results[1]!.split('Evidence id of this cell')[0]!));
}

let dir: string;
let model: ScriptedModel;

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-delegation-cells-'));
  model = await startScriptedModel([play], { loop: true });
});

afterAll(async () => {
  await model.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('delegation from cells (host.delegate, host.collect) with each child in its own kernel', () => {
  it('fans out from a cell, each child computes in its own generation, the parent collects from a cell and answers', async () => {
    const core = createCore({ env: scriptedCoreEnv(dir, model.baseUrl) });
    try {
      const session = core.ledger.createSession('cells');
      const run = core.runner.submit({ sessionId: session.id, mutationId: 'cells', message: 'Compute two values with two child agents from a cell.' });
      const done = await core.runner.result(run.id);
      expect(done.failureMessage).toBeNull();
      expect(done.status).toBe('completed');

      const children = core.ledger.runs.listChildren(session.id);
      expect(children.map((c) => [c.status, c.depth, c.parentRunId])).toEqual([
        ['completed', 1, run.id],
        ['completed', 1, run.id],
      ]);
      // Three generations: the parent's and one per child, all of this session.
      const generations = core.ledger.kernels.listBySession(session.id);
      expect(generations).toHaveLength(3);
      expect(new Set(generations.map((g) => g.id)).size).toBe(3);

      // Each child's cell ran in a generation that is not the parent's, and saw no children of its own.
      const events = core.ledger.events.readFrom(session.id);
      const cellOf = (runId: string) =>
        events
          .filter((e) => e.runId === runId)
          .map((e) => (e.chunk.type === 'data-child-event' ? (e.chunk as { data: { chunk: { type: string; data?: { generation?: string; stdout?: string } } } }).data.chunk : e.chunk))
          .filter((c) => c.type === 'data-cell' && (c as { data?: { generation?: string } }).data?.generation)
          .map((c) => (c as { data: { generation: string; stdout: string } }).data);
      const parentGenerations = new Set(cellOf(run.id).map((c) => c.generation));
      expect(parentGenerations.size).toBe(1);
      for (const child of children) {
        const [childCell] = cellOf(child.id);
        expect(childCell, child.id).toBeTruthy();
        expect(parentGenerations.has(childCell!.generation)).toBe(false);
        expect(childCell!.stdout).toMatch(/value (42|1024)/);
        expect(childCell!.stdout).toContain('children of this run: No children.');
      }
      // host.llm from the first child's cell answered it and counts in that child's run (and so in the session's budget).
      const [first, second] = children;
      expect(cellOf(first!.id)[0]!.stdout).toContain('llm says forty-two');
      expect(first!.usage?.inputTokens).toBeGreaterThan(HOST_LLM_PROMPT_TOKENS);
      expect(second!.usage?.inputTokens).toBeLessThan(HOST_LLM_PROMPT_TOKENS);
      // The parent's collect (from its cell) read both cited results.
      const collectCell = cellOf(run.id)[1]!;
      expect(collectCell.stdout.match(/\[completed\]/g)).toHaveLength(2);
      const answer = (core.ledger.history(session.id).messages.at(-1)!.parts.find((p) => p.type === 'data-answer') as { data: CitedAnswer }).data;
      expect(answer.cited).toBe(true);
      expect(answer.claims[0]!.evidence).toHaveLength(2);
      // The children's kernels stopped with them.
      expect(core.kernels.sizes().ownedKernels).toBe(0);
    } finally {
      await core.close();
    }
  }, 120_000);
});
