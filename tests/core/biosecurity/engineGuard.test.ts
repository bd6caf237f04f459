import { describe, expect, it } from 'vitest';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { runEngine } from '../../../src-main/core/engine/loop';
import type { ActionGuardPort, EnginePorts, GuardedStep, UnrunCall } from '../../../src-main/core/engine/ports';
import type { ToolCallRecord } from '../../../src-main/core/engine/routeAction';
import type { LlmMessage } from '../../../src-main/core/llm/types';
import { RecordingMockModel, finish, text, toolCall, type ScriptedReply } from '../../support/mockModel';

/** The engine's action guard port (issue 27): every step is shown to it; refuse answers one step, end closes the run. */
function harness(script: ScriptedReply[], guard: (step: GuardedStep) => ReturnType<ActionGuardPort['check']>) {
  const model = new RecordingMockModel(script);
  const chunks: StreamChunk[] = [];
  const executed: ToolCallRecord[][] = [];
  const unrun: UnrunCall[] = [];
  const cells: string[] = [];
  const steps: GuardedStep[] = [];
  const ports: EnginePorts = {
    model,
    executor: {
      async executeBatch(calls) {
        executed.push(calls);
        return calls.map((c) => ({ toolCallId: c.id, toolName: c.name, content: `ran ${c.name}`, isError: false }));
      },
      async recordUnrun(calls) {
        unrun.push(...calls);
      },
    },
    kernel: { executeCell: async (_language, code) => (cells.push(code), { ok: true, summary: 'stdout: 1' }) },
    context: { prepare: (h: readonly LlmMessage[]) => [...h] },
    sink: { emit: (c) => chunks.push(c) },
    evidence: { missing: (ids) => [...ids] },
    guard: { check: (step) => (steps.push(step), guard(step)) },
  };
  const run = () => runEngine(ports, { sessionId: 's1', runId: 'r1', system: 'sys', tools: [], history: [{ role: 'user', content: 'Look at this.' }], signal: new AbortController().signal });
  return { model, chunks, executed, unrun, cells, steps, run };
}

describe('engine action guard', () => {
  it('shows the message, each tool batch and each cell to the guard before it runs', async () => {
    const h = harness([[...toolCall('c1', 'science_search', { query: 'INS' }), finish('tool-calls')], text('```python\nprint(1)\n```'), text('Answer.'), text('Answer.')], async () => ({ action: 'proceed' }));
    const result = await h.run();
    expect(result.status).toBe('completed');
    expect(h.steps.map((s) => s.kind)).toEqual(['message', 'tools', 'cell']);
    expect(h.steps[0]).toEqual({ kind: 'message', text: 'Look at this.' });
    expect(h.executed).toHaveLength(1);
    expect(h.cells).toEqual(['print(1)']);
  });

  it('refuse: the batch does not run, each call is answered with the reason and audited as unrun, and the run goes on', async () => {
    const h = harness([[...toolCall('c1', 'write_file', { path: 'x.txt', content: 'ACGT' }), finish('tool-calls')], text('OK.'), text('OK.')], async (step) =>
      step.kind === 'tools' ? { action: 'refuse', message: 'identify the sequence first' } : { action: 'proceed' },
    );
    const result = await h.run();
    expect(result.status).toBe('completed');
    expect(h.executed).toEqual([]);
    expect(h.unrun.map((u) => u.answer)).toEqual(['Not executed: identify the sequence first']);
    // The window names the case (screening); the model reads the same English text as before.
    expect(h.chunks).toContainEqual({ type: 'tool-output-error', toolCallId: 'c1', errorText: 'Not executed: identify the sequence first', errorCode: 'screening_refused' });
    expect(result.history).toContainEqual(expect.objectContaining({ role: 'tool', toolCallId: 'c1', isError: true, content: 'Not executed: identify the sequence first' }));
  });

  it('end: the run fails as refused, the refusal is the assistant text, and nothing after it runs', async () => {
    const h = harness([text('```python\nprint("next step")\n```')], async (step) => (step.kind === 'cell' ? { action: 'end', message: 'I stopped this run: blocked.' } : { action: 'proceed' }));
    const result = await h.run();
    expect(result).toMatchObject({ status: 'failed', failureCode: 'refused', failureMessage: 'I stopped this run: blocked.' });
    expect(h.cells).toEqual([]);
    expect(h.chunks).toContainEqual({ type: 'text-delta', id: 'r1-refusal', delta: 'I stopped this run: blocked.' });
    expect(h.chunks.at(-1)).toEqual({ type: 'finish', finishReason: 'error' });
  });

  it('end at the message: no model request is made at all', async () => {
    const h = harness([], async () => ({ action: 'end', message: 'I stopped this run: the request evades screening.' }));
    const result = await h.run();
    expect(result).toMatchObject({ status: 'failed', failureCode: 'refused', turns: 0 });
    expect(h.model.requests).toEqual([]);
  });
});
