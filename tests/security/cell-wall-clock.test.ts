import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../src-preload/contract/routes';
import type { KernelLimitExtension } from '../../src-preload/contract/kernel';
import type { SessionStreamEvent } from '../../src-preload/contract/sessions';
import { createHandlers } from '../../src-main/core/api/handlers';
import { resolveCellTimeoutMs } from '../../src-main/core/config/cellLimit';
import { createCore, type Core } from '../../src-main/core/core';
import { createRouter } from '../../src-main/core/api/router';
import { startScriptedModel, type ScriptedModel } from '../support/scriptedModel';
import { validAnswer } from '../support/mockModel';

// Attack: an agent cell that never ends (`while True: pass`, a hung download) held its
// run `processing` forever: agent cells had no time limit.

let dir: string;
let server: ScriptedModel;
let core: Core;
async function start(cell: string, limitS: string | null) {
  server = await startScriptedModel([
    { reply: [{ text: `Computing.\n\`\`\`python\n${cell}\n\`\`\`` }] },
    { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
  ]);
  const { OPENAI4S_CELL_TIMEOUT_S: _ignored, ...inherited } = process.env;
  core = createCore({
    env: {
      ...inherited,
      OPENAI4S_DATA_DIR: dir,
      OPENAI4S_PROVIDER: 'openai',
      OPENAI4S_OPENAI_BASE_URL: server.baseUrl,
      OPENAI4S_OPENAI_API_KEY: 'k',
      OPENAI4S_KERNEL_PREWARM: '0',
      ...(limitS ? { OPENAI4S_CELL_TIMEOUT_S: limitS } : {}),
    },
  });
  const router = createRouter(routes, createHandlers(core));
  const call = async <T>(route: string, input?: unknown): Promise<T> => {
    const r = await router.handle(route, input, { origin: 'app://openai4s', isMainFrame: true });
    if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
    return r.data as T;
  };
  const seen: SessionStreamEvent[] = [];
  core.events.on('session.stream', (e) => seen.push(e));
  return { call, seen };
}

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-wallclock-'));
});
afterEach(async () => {
  await core?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

const until = async (cond: () => boolean) => {
  for (let i = 0; i < 12_000 && !cond(); i++) await new Promise((r) => setTimeout(r, 10));
  if (!cond()) throw new Error('condition not reached');
};

/** The last full data of the run's cell part (patches skipped). */
function lastCell(seen: SessionStreamEvent[]): Record<string, unknown> | undefined {
  const chunks = seen.map((e) => e.chunk as { type: string; data?: Record<string, unknown> }).filter((c) => c.type === 'data-cell' && c.data);
  return chunks.at(-1)?.data;
}

describe('the wall-clock limit of agent cells', () => {
  it('stops a cell that never ends, says the limit was hit and how to raise it, and the kernel stays usable', async () => {
    const { call, seen } = await start('x = 1\nwhile True:\n    pass', '1.5');
    const session = await call<{ id: string }>('session.create', { title: 'loop' });
    const run = await call<{ id: string }>('run.submit', { sessionId: session.id, mutationId: 'm1', message: 'loop' });
    const done = await core.runner.result(run.id);
    expect(done.status).toBe('completed');
    const cell = lastCell(seen)!;
    expect(cell.status).toBe('interrupted');
    expect(cell.timeLimit).toMatchObject({ limitMs: 1500, message: expect.stringContaining('hit its wall-clock limit of 1.5 s') });
    expect(String((cell.timeLimit as { message: string }).message)).toContain('OPENAI4S_CELL_TIMEOUT_S');
    // The model was told too, in the cell's result.
    const second = JSON.stringify(server.requests[1]!.body);
    expect(second).toContain('hit its wall-clock limit');
    // SIGINT stopped the loop: same kernel, its variables kept.
    const after = await core.kernels.execute(session.id, 'python', 'print(x + 41)');
    expect(after).toMatchObject({ status: 'ok', stdout: '42\n', generation: cell.generation });
  });

  it('lets the user extend a running cell (kernel.extendCellLimit) so it runs past the first limit', async () => {
    const flag = 'go.flag';
    const { call, seen } = await start(`import os, time\nprint("started", flush=True)\nwhile not os.path.exists(${JSON.stringify(flag)}):\n    time.sleep(0.05)\nprint("done")`, '4');
    const session = await call<{ id: string }>('session.create', { title: 'long' });
    const run = await call<{ id: string }>('run.submit', { sessionId: session.id, mutationId: 'm1', message: 'long' });
    await until(() => seen.some((e) => JSON.stringify(e.chunk).includes('"text":"started')));
    const running = seen.map((e) => e.chunk as { type: string; data?: { timeLimitMs?: number } }).find((c) => c.type === 'data-cell' && c.data?.timeLimitMs);
    expect(running?.data?.timeLimitMs).toBe(4000);
    const started = Date.now();
    const extension = await call<KernelLimitExtension>('kernel.extendCellLimit', { sessionId: session.id, language: 'python', extendMs: 120_000 });
    expect(extension).toMatchObject({ extended: true, limitMs: 124_000 });
    // Well past the first limit, then let the cell finish.
    await new Promise((r) => setTimeout(r, Math.max(0, 6_000 - (Date.now() - started))));
    fs.writeFileSync(path.join(core.kernels.workspaceFor(session.id), flag), '');
    await core.runner.result(run.id);
    const cell = lastCell(seen)!;
    expect(cell).toMatchObject({ status: 'ok', stdout: 'started\ndone\n' });
    expect(cell.timeLimit).toBeUndefined();
    // Nothing is running now: an extension says so instead of pretending.
    expect(await call<KernelLimitExtension>('kernel.extendCellLimit', { sessionId: session.id, language: 'python', extendMs: 60_000 })).toEqual({ extended: false });
  });

  it('takes the limit chosen in Settings when the environment does not set one', async () => {
    const { call, seen } = await start('while True:\n    pass', null);
    const view = await call<{ settings: { cellTimeoutS?: number } }>('settings.update', { cellTimeoutS: 2 });
    expect(view.settings.cellTimeoutS).toBe(2);
    const session = await call<{ id: string }>('session.create', { title: 'settings' });
    const run = await call<{ id: string }>('run.submit', { sessionId: session.id, mutationId: 'm1', message: 'loop' });
    await core.runner.result(run.id);
    expect(lastCell(seen)).toMatchObject({ status: 'interrupted', timeLimit: { limitMs: 2000, message: expect.stringContaining('limit of 2 s') } });
  });

  it('reads OPENAI4S_CELL_TIMEOUT_S (over Settings) with a generous default and a clear error', () => {
    expect(resolveCellTimeoutMs({ value: () => undefined })).toBe(30 * 60_000);
    expect(resolveCellTimeoutMs({ value: () => undefined }, 600)).toBe(600_000);
    expect(resolveCellTimeoutMs({ value: () => '90' }, 600)).toBe(90_000);
    expect(resolveCellTimeoutMs({ value: () => '90' })).toBe(90_000);
    expect(() => resolveCellTimeoutMs({ value: () => 'soon' })).toThrow(/OPENAI4S_CELL_TIMEOUT_S=soon .* positive number of seconds/);
  });
});
