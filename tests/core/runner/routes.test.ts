import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import type { SessionStreamEvent } from '../../../src-preload/contract/sessions';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';
import { createRouter } from '../../../src-main/core/api/router';
import { heldFileCount } from '../../../src-main/core/workspace/heldFiles';
import { readSmallWorkspaceFile } from '../../../src-main/core/workspace/safeFs';
import { startScriptedModel, type ScriptedModel } from '../../support/scriptedModel';
import { validAnswer } from '../../support/mockModel';

let dir: string;
let server: ScriptedModel;
let core: Core;
beforeEach(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-runroutes-'));
  server = await startScriptedModel([{ reply: [{ text: 'Looking.' }] }, { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] }]);
  core = createCore({
    env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_BASE_URL: server.baseUrl, OPENAI4S_OPENAI_API_KEY: 'k', OPENAI4S_KERNEL_PREWARM: '0' },
  });
});
afterEach(async () => {
  await core.close();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('run routes and the session stream', () => {
  it('submits over the router, publishes stored chunks in seq order, and replays what a renderer missed', async () => {
    const router = createRouter(routes, createHandlers(core));
    const caller = { origin: 'app://openai4s', isMainFrame: true };
    const call = async <T>(route: string, input?: unknown): Promise<T> => {
      const r = await router.handle(route, input, caller);
      if (!r.ok) throw new Error(`${r.error.code}: ${r.error.message}`);
      return r.data as T;
    };
    const seen: SessionStreamEvent[] = [];
    core.events.on('session.stream', (e) => seen.push(e));
    const session = await call<{ id: string }>('session.create', { title: 'INS' });
    const run = await call<{ id: string; status: string }>('run.submit', { sessionId: session.id, mutationId: 'm-1', message: 'What is insulin?' });
    expect(run.status).toBe('queued');
    // The same mutation again: the same run, not a second execution.
    expect((await call<{ id: string }>('run.submit', { sessionId: session.id, mutationId: 'm-1', message: 'What is insulin?' })).id).toBe(run.id);
    expect((await core.runner.result(run.id)).status).toBe('completed');
    expect(server.requests).toHaveLength(2);

    expect(seen.map((e) => e.seq)).toEqual(seen.map((_, i) => i + 1));
    const all = await call<{ events: SessionStreamEvent[]; lastSeq: number; complete: boolean }>('session.replay', { sessionId: session.id, afterSeq: 0 });
    expect(all.complete).toBe(true);
    expect(all.events).toEqual(seen);
    expect(all.lastSeq).toBe(seen.length);
    const tail = await call<{ events: SessionStreamEvent[] }>('session.replay', { sessionId: session.id, afterSeq: seen.length - 2 });
    expect(tail.events.map((e) => e.seq)).toEqual([seen.length - 1, seen.length]);
    const gap = await call<{ events: unknown[]; complete: boolean }>('session.replay', { sessionId: session.id, afterSeq: 0, limit: 3 });
    expect(gap).toMatchObject({ complete: false });
    expect(gap.events).toHaveLength(3);

    expect(await call('run.state', { sessionId: session.id })).toEqual({ active: null, queued: [] });
    expect(await call('run.stop', { sessionId: session.id })).toEqual({ stopped: null });
    const empty = await router.handle('run.submit', { sessionId: session.id, mutationId: 'm-2', message: '   ' }, caller);
    expect(empty).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('deleting a session cancels its active and queued runs first; nothing runs in a deleted session', async () => {
    const hanging = await startScriptedModel([{ hang: true }]);
    const local = createCore({
      env: { ...process.env, OPENAI4S_DATA_DIR: path.join(dir, 'del'), OPENAI4S_PROVIDER: 'openai', OPENAI4S_OPENAI_BASE_URL: hanging.baseUrl, OPENAI4S_OPENAI_API_KEY: 'k', OPENAI4S_KERNEL_PREWARM: '0' },
    });
    try {
      const router = createRouter(routes, createHandlers(local));
      const caller = { origin: 'app://openai4s', isMainFrame: true };
      const session = local.ledger.createSession('to delete');
      const active = local.runner.submit({ sessionId: session.id, mutationId: 'a', message: 'long question' });
      const queued = local.runner.submit({ sessionId: session.id, mutationId: 'b', message: 'queued question' });
      for (let i = 0; i < 500 && hanging.requests.length === 0; i++) await new Promise((r) => setTimeout(r, 5));
      expect(hanging.requests).toHaveLength(1);

      expect(await router.handle('session.delete', { sessionId: session.id }, caller)).toMatchObject({ ok: true, data: { deleted: true } });
      // Both runs ended as cancelled by the delete (not failed on a vanished session), and the queued one never reached the model.
      expect(await local.runner.result(active.id)).toMatchObject({ status: 'cancelled', failureCode: 'cancelled' });
      expect(await local.runner.result(queued.id)).toMatchObject({ status: 'cancelled', failureCode: 'cancelled' });
      expect(local.runner.state(session.id)).toEqual({ active: null, queued: [] });
      expect(hanging.requests).toHaveLength(1);
    } finally {
      await local.close();
      await hanging.close();
    }
  });

  it('deleting a session closes the descriptors held for repeated reads of its workspace files at once', async () => {
    const session = core.ledger.createSession('reads');
    const workspace = core.kernels.workspaceFor(session.id);
    fs.mkdirSync(workspace, { recursive: true });
    fs.writeFileSync(path.join(workspace, 'notes.txt'), 'benign\n');
    const held = heldFileCount();
    expect(readSmallWorkspaceFile(workspace, 'notes.txt', 1024)?.bytes.toString()).toBe('benign\n');
    if (process.platform === 'linux') expect(heldFileCount()).toBe(held + 1);
    await core.deleteSession(session.id);
    expect(heldFileCount()).toBe(held);
    expect(core.sizes()['workspace.heldFiles']).toBe(held);
  });
});
