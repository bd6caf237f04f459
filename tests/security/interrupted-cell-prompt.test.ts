import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { SessionStreamEvent } from '../../src-preload/contract/sessions';
import { openLedger, type Ledger } from '../../src-main/core/ledger/ledger';
import { kernelPort } from '../../src-main/core/runner/kernelCells';
import { priorHistory } from '../../src-main/core/runner/priorHistory';
import { SessionRunner } from '../../src-main/core/runner/sessionRunner';
import { makeSupervisor } from '../core/kernel/helpers';
import { RecordingMockModel, finish, text } from '../support/mockModel';
import { LiveRuns } from '../../src-main/core/engine/liveRuns';

// A run stopped while its cell ran: the next run's prompt carried the cell's code (the
// fence the model wrote) but not that it never finished, so the model went on as if the
// variables the cell was meant to create existed.

const { sup } = makeSupervisor();
afterAll(() => sup.close());

let dir: string;
let ledger: Ledger;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-interrupted-'));
  ledger = openLedger(path.join(dir, 'ledger.sqlite3'));
});
afterEach(() => {
  ledger.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 20_000 && !cond(); i++) await new Promise((r) => setTimeout(r, 5));
  if (!cond()) throw new Error('condition not reached');
};

const CELL = '```python\nprint("started", flush=True)\nwhile True:\n    pass\nresults = 42\n```';

describe('the prompt after an interrupted cell', () => {
  it('tells the model that the previous run\'s cell was interrupted', async () => {
    const published: SessionStreamEvent[] = [];
    const model = new RecordingMockModel([[{ type: 'text-delta', text: `Computing.\n${CELL}` }, finish()], text('Let me check first.')]);
    const runner = new SessionRunner({
      ledger,
      createModel: () => model,
      executor: { executeBatch: async (calls) => calls.map((c) => ({ toolCallId: c.id, toolName: c.name, isError: true, content: 'no tools here' })) },
      kernel: kernelPort(sup),
      evidenceFor: () => ({ missing: (ids) => [...ids] }),
      tools: () => [],
      systemPrompt: () => 'system',
      liveRuns: new LiveRuns(),
      publish: (e) => published.push(e),
    });
    const session = ledger.createSession('interrupted');
    const first = runner.submit({ sessionId: session.id, mutationId: 'a', message: 'compute results' });
    // Stop once the cell is really running (its first output arrived).
    await until(() => published.some((e) => e.chunk.type === 'data-cell' && JSON.stringify(e.chunk).includes('"text":"started')));
    runner.stop(session.id);
    expect((await runner.result(first.id)).status).toBe('cancelled');

    const second = runner.submit({ sessionId: session.id, mutationId: 'b', message: 'print results' });
    await runner.result(second.id);
    const request = model.requests.find((r) => r.messages.some((m) => m.role === 'user' && m.content === 'print results'));
    const prompt = request!.messages.map((m) => `${m.role}: ${typeof m.content === 'string' ? m.content : JSON.stringify(m.content)}`).join('\n');
    expect(prompt).toMatch(/the Python cell of this turn was interrupted before it finished/);
  });

  it('a Stop while the cell waits for its kernel ends the run (the cell never starts) and is named too', async () => {
    const model = new RecordingMockModel([[{ type: 'text-delta', text: CELL }, finish()], text('Checking.')]);
    const session = ledger.createSession('stopped early');
    let runner: SessionRunner | null = null;
    runner = new SessionRunner({
      ledger,
      createModel: () => model,
      executor: { executeBatch: async () => [] },
      kernel: kernelPort(sup),
      evidenceFor: () => ({ missing: (ids) => [...ids] }),
      tools: () => [],
      systemPrompt: () => 'system',
      // Stop the moment the cell is announced: its kernel (new for this session) is not ready yet.
      liveRuns: new LiveRuns(),
      publish: (e) => {
        if (e.chunk.type === 'data-cell' && JSON.stringify(e.chunk).includes('"status":"running"')) runner?.stop(session.id);
      },
    });
    const first = runner.submit({ sessionId: session.id, mutationId: 'a', message: 'compute results' });
    expect((await runner.result(first.id)).status).toBe('cancelled');
    const second = runner.submit({ sessionId: session.id, mutationId: 'b', message: 'print results' });
    await runner.result(second.id);
    const prompt = model.requests.at(-1)!.messages.map((m) => (typeof m.content === 'string' ? m.content : '')).join('\n');
    expect(prompt).toMatch(/the Python cell of this turn was interrupted before it finished/);
  });

  it('names a cell whose kernel died, and one that never finished, and says nothing of a cell that ran', () => {
    const message = (status: string, extra: Record<string, unknown> = {}) => [
      { id: 'u', role: 'user' as const, parts: [{ type: 'text' as const, text: 'go' }] },
      { id: 'a', role: 'assistant' as const, parts: [{ type: 'data-cell' as const, id: 'c', data: { language: 'r', code: 'x <- 1', status, ...extra } }] },
    ];
    const last = (status: string, extra?: Record<string, unknown>) => priorHistory(message(status, extra)).at(-1);
    expect(last('died', { died: { reason: 'killed by SIGKILL' } })).toMatchObject({ role: 'assistant', content: expect.stringContaining('its kernel ended (killed by SIGKILL)') });
    expect(last('interrupted', { died: { reason: 'did not stop within 2000 ms of the interrupt and was killed' } })?.content).toContain('All variables');
    expect(last('running')?.content).toContain('the R cell of this turn never finished');
    expect(last('ok')).toMatchObject({ role: 'user' });
  });
});
