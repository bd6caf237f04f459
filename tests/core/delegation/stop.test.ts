import { afterEach, describe, expect, it } from 'vitest';
import { dataChunk, dataPatchChunk } from '../../../src-preload/contract/dataParts';
import { fold } from '../../../src-preload/contract/fold';
import type { ChildKernel } from '../../../src-main/core/delegation/service';
import { finish, validAnswer } from '../../support/mockModel';
import { call, childIds, delegationHarness, runMessage, type Asker, type Harness } from './harness';

let h: Harness | null = null;
afterEach(async () => {
  await h?.close();
  h = null;
});

const tick = (ms = 1) => new Promise((resolve) => setTimeout(resolve, ms));
const LATE = 'late-output-after-stop';

/**
 * A fast fake kernel that behaves badly on purpose: a cell writes output until it is
 * stopped, then keeps writing a few pieces and hands in a cited answer anyway (a worker
 * that ignores SIGINT for a moment). None of that may reach the parent, the stream or
 * the ledger as a result.
 */
function stubbornKernel(running: Set<string>, onRunning: () => void): ChildKernel {
  return {
    async executeCell(language, code, ctx) {
      const id = `${ctx.runId}-cell`;
      ctx.emit(dataChunk('cell', id, { language, code, status: 'running', output: [] }));
      running.add(ctx.runId);
      onRunning();
      for (let n = 0; !ctx.signal.aborted; n++) {
        ctx.emit(dataPatchChunk('cell', id, [{ op: 'add', path: '/output/-', value: { stream: 'stdout', text: `tick ${n}\n` } }]));
        await tick();
      }
      for (let i = 0; i < 3; i++) {
        await tick(0);
        ctx.emit(dataPatchChunk('cell', id, [{ op: 'add', path: '/output/-', value: { stream: 'stdout', text: `${LATE}\n` } }]));
      }
      ctx.emit(dataChunk('cell', id, { language, code, status: 'ok', stdout: LATE }));
      return { ok: true, summary: LATE, submitted: validAnswer };
    },
  };
}

const cell = () => [{ type: 'text-delta' as const, text: '```python\nwhile True:\n    pass\n```' }, finish()];

describe('stop_child ends the subtree; nothing it produces afterwards is kept', () => {
  it('50 times over: a child and its grandchild stopped during their cells leave no late output anywhere', async () => {
    const running = new Set<string>();
    let bothRunning: (() => void) | null = null;
    let waitBoth = Promise.resolve();
    const arm = () => {
      running.clear();
      waitBoth = new Promise<void>((resolve) => (bothRunning = resolve));
    };
    const parentSaw: string[][] = [];
    const reply = async (a: Asker) => {
      const last = a.tools.at(-1);
      if (a.depth === 2) return cell();
      if (a.depth === 1) return last ? cell() : call('delegate_task', { task: 'compute the grandchild part' });
      parentSaw.push(a.tools.map((t) => t.content));
      if (!last) return call('delegate_task', { task: 'compute the child part' });
      if (last.toolName === 'delegate_task') {
        await waitBoth;
        return call('stop_child', { id: childIds(last.content)[0] }, 'stop-call');
      }
      if (last.toolName === 'stop_child') return call('collect_children', {});
      return call('finalize_response', validAnswer);
    };
    h = delegationHarness({
      reply,
      kernelFor: () =>
        stubbornKernel(running, () => {
          if (running.size >= 2) bothRunning?.();
        }),
    });
    for (let round = 0; round < 50; round++) {
      arm();
      parentSaw.length = 0;
      const session = h.ledger.createSession(`stop ${round}`);
      const root = await runMessage(h, session.id, 'start a child, then stop it');
      expect(root.status, `round ${round}`).toBe('completed');
      const [child, grandchild] = h.ledger.runs.listChildren(session.id);
      expect(child!.parentRunId).toBe(root.id);
      expect(grandchild!.parentRunId).toBe(child!.id);
      // Both runs are recorded as stopped, not as results.
      expect([child!.status, grandchild!.status]).toEqual(['cancelled', 'cancelled']);
      const seen = parentSaw.at(-1)!;
      expect(seen[1]).toMatch(new RegExp(`child ${child!.id} \\[stopped\\]`));
      expect(seen[1]).toMatch(new RegExp(`child ${grandchild!.id} \\[stopped\\]`));
      // collect_children reads the child as stopped, with no answer.
      expect(seen[2]).toMatch(/\[stopped\] depth 1/);
      expect(seen[2]).not.toMatch(/summary:/);
      const events = h.ledger.events.readFrom(session.id);
      const stopped = events.find((e) => e.runId === root.id && e.chunk.type === 'tool-output-available' && (e.chunk as { toolCallId: string }).toolCallId === 'stop-call')!;
      expect(stopped, `round ${round}: the stop_child result is in the stream`).toBeTruthy();
      const subtree = new Set([child!.id, grandchild!.id]);
      const late = events.filter((e) => e.runId && subtree.has(e.runId) && e.seq > stopped.seq);
      expect(late, `round ${round}: chunks of the stopped subtree after stop_child returned`).toEqual([]);
      expect(JSON.stringify(events.map((e) => e.chunk)), `round ${round}`).not.toContain(LATE);
      // The subtree really ran cells before it was stopped (the test stops it mid-cell).
      expect(events.some((e) => e.runId === grandchild!.id && JSON.stringify(e.chunk).includes('tick 0'))).toBe(true);
      // The user's message shows both children stopped.
      const message = fold(events.map((e) => e.chunk)).at(-1)!;
      const parts = message.parts.filter((p) => p.type === 'data-child') as { data: { runId: string; status: string } }[];
      expect(parts.map((p) => p.data.status)).toEqual(['stopped', 'stopped']);
    }
    // Nothing is kept for trees that ended, nor for sessions that are idle.
    await until(() => h!.service.sizes().nodes === 0);
    expect(h.service.sizes()).toEqual({ nodes: 0, sessions: 0, roots: 0, poolRunning: 0, poolWaiting: 0 });
  }, 120_000);

  it('a run that answers without collecting takes its running children with it', async () => {
    const running = new Set<string>();
    let release: (() => void) | null = null;
    const started = new Promise<void>((resolve) => (release = resolve));
    h = delegationHarness({
      reply: async (a) => {
        if (a.depth === 1) return cell();
        if (!a.tools.length) return call('delegate_task', { tasks: [{ task: 'a' }, { task: 'b' }] });
        await started;
        // Finalises without collecting: the children must not outlive the run.
        return call('finalize_response', validAnswer);
      },
      kernelFor: () =>
        stubbornKernel(running, () => {
          if (running.size >= 2) release?.();
        }),
    });
    const session = h.ledger.createSession('orphans');
    const root = await runMessage(h, session.id, 'fan out, then answer at once');
    expect(root.status).toBe('completed');
    await until(() => h!.ledger.runs.listChildren(session.id).every((c) => c.status !== 'processing'));
    expect(h.ledger.runs.listChildren(session.id).map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(JSON.stringify(h.ledger.events.readFrom(session.id).map((e) => e.chunk))).not.toContain(LATE);
    // The message shows them stopped (their last part landed before the run's closing chunks), not running forever.
    const rootChunks = h.ledger.events.readFrom(session.id).filter((e) => e.runId === root.id).map((e) => e.chunk as { type: string; id?: string; data?: { status?: string } });
    const lastState = new Map<string, string>();
    for (const c of rootChunks) if (c.type === 'data-child' && c.id && c.data?.status) lastState.set(c.id, c.data.status);
    expect([...lastState.values()]).toEqual(['stopped', 'stopped']);
    const finishAt = rootChunks.findIndex((c) => c.type === 'finish');
    expect(rootChunks.slice(finishAt + 1).some((c) => c.type === 'data-child')).toBe(false);
  });
});

describe('the user stops children', () => {
  it('the stop button (delegation.stop) ends a child and its subtree; the parent reads it as stopped by the user', async () => {
    const running = new Set<string>();
    let ready: (() => void) | null = null;
    const bothRunning = new Promise<void>((resolve) => (ready = resolve));
    const parentSaw: string[] = [];
    h = delegationHarness({
      reply: (a) => {
        if (a.depth === 2) return cell();
        if (a.depth === 1) return a.tools.length ? cell() : call('delegate_task', { task: 'grandchild' });
        parentSaw.splice(0, parentSaw.length, ...a.tools.map((t) => t.content));
        if (!a.tools.length) return call('delegate_task', { task: 'child' });
        if (a.tools.length === 1) return call('collect_children', {});
        return call('finalize_response', validAnswer);
      },
      kernelFor: () =>
        stubbornKernel(running, () => {
          if (running.size >= 2) ready?.();
        }),
    });
    const session = h.ledger.createSession('user stop');
    const run = h.runner.submit({ sessionId: session.id, mutationId: 'u', message: 'start a child' });
    await bothRunning;
    const [child, grandchild] = h.ledger.runs.listChildren(session.id);
    const { stopped } = await h.service.stopFromUser(session.id, child!.id);
    expect(stopped).toEqual([child!.id, grandchild!.id]);
    await expect(h.service.stopFromUser(session.id, child!.id)).resolves.toEqual({ stopped: [] });
    await expect(h.service.stopFromUser('another-session', child!.id)).rejects.toThrow(/is not running in this session/);
    const done = await h.runner.result(run.id);
    expect(done.status).toBe('completed');
    expect(parentSaw[1]).toMatch(/\[stopped\][^\n]*\n\s+Stopped by the user\./);
    expect(JSON.stringify(h.ledger.events.readFrom(session.id).map((e) => e.chunk))).not.toContain(LATE);
  });

  it("Stop on the user's run stops the children it started", async () => {
    const running = new Set<string>();
    let ready: (() => void) | null = null;
    const started = new Promise<void>((resolve) => (ready = resolve));
    h = delegationHarness({
      reply: (a) => {
        if (a.depth === 1) return cell();
        if (!a.tools.length) return call('delegate_task', { tasks: [{ task: 'a' }, { task: 'b' }] });
        return call('collect_children', {});
      },
      kernelFor: () =>
        stubbornKernel(running, () => {
          if (running.size >= 2) ready?.();
        }),
    });
    const session = h.ledger.createSession('stop run');
    const run = h.runner.submit({ sessionId: session.id, mutationId: 's', message: 'fan out and wait' });
    await started;
    expect(h.runner.stop(session.id)).toEqual({ stopped: run.id });
    expect((await h.runner.result(run.id)).status).toBe('cancelled');
    await until(() => h!.ledger.runs.listChildren(session.id).every((c) => c.status !== 'processing'));
    expect(h.ledger.runs.listChildren(session.id).map((c) => c.status)).toEqual(['cancelled', 'cancelled']);
    expect(JSON.stringify(h.ledger.events.readFrom(session.id).map((e) => e.chunk))).not.toContain(LATE);
  });
});

async function until(cond: () => boolean): Promise<void> {
  for (let i = 0; i < 2000 && !cond(); i++) await tick(2);
  if (!cond()) throw new Error('condition not reached');
}
