import { describe, expect, it } from 'vitest';
import { createBridge } from '../../src-renderer/src/api/bridge';
import {
  DEMO_MODEL_ID,
  isReplaySession,
  isReplayTitle,
} from '../../src-renderer/src/store/replay';
import { createAppStore } from '../../src-renderer/src/store/store';
import type { AttachSource } from '../../src-renderer/src/store/types';
import {
  ATTACH_LIMIT_BYTES,
  toBase64,
  withAttachments,
} from '../../src-renderer/src/store/workspaceSlice';
import { MAX_ATTACH_BYTES } from '../../src-preload/contract/workspace';
import type {
  Envelope,
  RunRecord,
  SessionOpening,
  SessionSummary,
} from '../../src-preload/contract';
import { fakeBridgeApi, memoryStorage } from './support';

const session = (id: string, title: string): SessionSummary => ({
  id,
  title,
  createdAt: '2026-01-01T00:00:00.000Z',
  updatedAt: '2026-01-01T00:00:00.000Z',
  revision: 1,
});

const run = (sessionId: string, model: string | null): RunRecord => ({
  id: `run-${sessionId}`,
  sessionId,
  mutationId: `demo-${sessionId}`,
  message: '帮我查人胰岛素 INS',
  status: 'queued',
  failureCode: null,
  failureMessage: null,
  createdAt: '2026-01-01T00:00:00.000Z',
  startedAt: null,
  finishedAt: null,
  provider: model ? 'openai' : null,
  model,
  usage: null,
  costUsd: null,
});

type Answer = (route: string, input: unknown) => Envelope<unknown> | Promise<Envelope<unknown>>;

/** A store over a fake main that knows sessions and their (empty) histories. */
function setup(extra: Answer) {
  const sessions = new Map<string, SessionSummary>();
  const api = fakeBridgeApi(async (route, input) => {
    const answered = await extra(route, input);
    if (answered.ok || answered.error.code !== 'unknown_route') return answered;
    const sessionId = (input as { sessionId?: string } | undefined)?.sessionId;
    if (route === 'session.create') {
      const s = session(`s${sessions.size + 1}`, 'New session');
      sessions.set(s.id, s);
      return { ok: true, data: s };
    }
    if (route === 'session.open' && sessionId) {
      const opening: SessionOpening = { session: sessions.get(sessionId)!, runs: [], lastSeq: 0, fromSeq: 1, events: [] };
      return { ok: true, data: opening };
    }
    if (route === 'run.state') return { ok: true, data: { active: null, queued: [] } };
    return { ok: true, data: [] };
  });
  const store = createAppStore({
    bridge: createBridge(() => api),
    storage: memoryStorage(),
    systemLanguages: ['en-US'],
  });
  return { api, store, sessions };
}

const unknown: Answer = () => ({ ok: false, error: { code: 'unknown_route', message: 'x' } });

function file(name: string, bytes: Uint8Array): AttachSource {
  return {
    name,
    size: bytes.byteLength,
    arrayBuffer: async () => bytes.slice().buffer,
  };
}

describe('workspace helpers', () => {
  it('keeps the attach limit equal to the contract, and knows the demo title as a replay', () => {
    expect(ATTACH_LIMIT_BYTES).toBe(MAX_ATTACH_BYTES);
    // (The e2e story test pins the model id and title to the ones main uses.)
    expect(isReplayTitle('演示回放：人胰岛素 INS（录制数据）')).toBe(true);
    expect(isReplayTitle('Look up insulin')).toBe(false);
  });

  it('encodes bytes as base64 across slice boundaries', () => {
    const bytes = new Uint8Array(0x8000 * 2 + 17).map((_, i) => (i * 31 + 7) % 256);
    let binary = '';
    for (const b of bytes) binary += String.fromCharCode(b);
    expect(toBase64(bytes)).toBe(btoa(binary));
    expect(toBase64(new Uint8Array())).toBe('');
  });

  it('appends the attached workspace paths to the message', () => {
    expect(withAttachments('  Plot it. ', [])).toBe('Plot it.');
    expect(withAttachments('Plot it.', ['uploads/a.csv', 'uploads/b.txt'])).toBe(
      'Plot it.\n\nAttached: uploads/a.csv, uploads/b.txt',
    );
    expect(withAttachments('', ['uploads/a.csv'])).toBe('Attached: uploads/a.csv');
  });

  it('tells a replay session by its run model or message metadata', () => {
    expect(isReplaySession([run('a', DEMO_MODEL_ID)], [])).toBe(true);
    expect(isReplaySession([run('a', 'gpt-4o-mini')], [])).toBe(false);
    expect(isReplaySession([], [{ metadata: { model: DEMO_MODEL_ID } }])).toBe(true);
    expect(isReplaySession([], [{ metadata: undefined }])).toBe(false);
  });
});

describe('workspace slice', () => {
  it('starts the demo: the new session is listed, opened, and its run known', async () => {
    const demo = session('demo1', '演示回放：人胰岛素 INS（录制数据）');
    const demoRun = run('demo1', DEMO_MODEL_ID);
    const { store, api, sessions } = setup((route) => {
      if (route === 'demo.start') {
        sessions.set(demo.id, demo);
        return { ok: true, data: { session: demo, run: demoRun } };
      }
      return unknown(route, null);
    });
    const pending = store.getState().startDemo();
    expect(store.getState().demoStatus).toBe('starting');
    // A second press while starting does nothing.
    expect(await store.getState().startDemo()).toBe(false);
    expect(await pending).toBe(true);
    const s = store.getState();
    expect(s.demoStatus).toBe('idle');
    expect(s.view).toBe('session');
    expect(s.sessions.items.map((x) => x.id)).toContain('demo1');
    expect(s.conversation?.sessionId).toBe('demo1');
    expect(s.conversation?.runs.map((r) => r.id)).toEqual([demoRun.id]);
    expect(isReplaySession(s.conversation!.runs, s.conversation!.fold.messages)).toBe(true);
    expect(api.calls.filter((c) => c.route === 'demo.start')).toHaveLength(1);
  });

  it('reports a demo that could not start', async () => {
    const { store } = setup((route) =>
      route === 'demo.start'
        ? { ok: false, error: { code: 'unavailable', message: 'resources/demo is missing' } }
        : unknown(route, null),
    );
    expect(await store.getState().startDemo()).toBe(false);
    expect(store.getState().notices.items.map((n) => n.message)).toEqual([
      'resources/demo is missing',
    ]);
    expect(store.getState().demoStatus).toBe('idle');
  });

  it('exports the open session and keeps the result for that session only', async () => {
    const result = { file: '/data/exports/a.zip', files: 12, digest: 'ab'.repeat(32), revealed: false };
    let fail = false;
    const { store, api } = setup((route) => {
      if (route !== 'session.export') return unknown(route, null);
      return fail
        ? { ok: false, error: { code: 'internal', message: 'disk full while writing a.zip' } }
        : { ok: true, data: result };
    });
    await store.getState().exportSession(); // no session open: nothing to export
    expect(store.getState().exported).toBeNull();
    await store.getState().createSession();
    await store.getState().exportSession();
    expect(api.calls.find((c) => c.route === 'session.export')?.input).toEqual({
      sessionId: 's1',
      reveal: true,
    });
    expect(store.getState().exported).toEqual({
      sessionId: 's1',
      status: 'done',
      result,
      error: null,
    });
    fail = true;
    await store.getState().exportSession();
    expect(store.getState().exported).toMatchObject({
      status: 'error',
      error: { code: 'internal', message: 'disk full while writing a.zip' },
    });
    store.getState().dismissExport();
    expect(store.getState().exported).toBeNull();
  });

  it('attaches files into the session workspace (opening one first) and sends their paths once', async () => {
    const attached: unknown[] = [];
    const { store } = setup((route, input) => {
      if (route !== 'workspace.attach') return unknown(route, null);
      const { name, base64 } = input as { name: string; base64: string };
      attached.push(input);
      if (name === 'bad.txt')
        return { ok: false, error: { code: 'conflict', message: 'uploads/bad.txt exists' } };
      return { ok: true, data: { path: `uploads/${name}`, bytes: atob(base64).length, sha256: 'f'.repeat(64) } };
    });
    const csv = new TextEncoder().encode('gene,count\nINS,51\n');
    await store.getState().attachFiles([
      file('data.csv', csv),
      file('bad.txt', new Uint8Array([1])),
      { name: 'huge.bin', size: ATTACH_LIMIT_BYTES + 1, arrayBuffer: () => Promise.reject(new Error('not read')) },
    ]);
    const s = store.getState();
    expect(s.conversation?.sessionId).toBe('s1');
    expect(attached).toEqual([
      { sessionId: 's1', name: 'data.csv', base64: btoa('gene,count\nINS,51\n') },
      { sessionId: 's1', name: 'bad.txt', base64: 'AQ==' },
    ]);
    expect(s.attachments.items.map((a) => [a.name, a.status, a.path, a.error])).toEqual([
      ['data.csv', 'ready', 'uploads/data.csv', null],
      ['bad.txt', 'error', null, { code: 'conflict', message: 'uploads/bad.txt exists' }],
      ['huge.bin', 'error', null, 'too-large'],
    ]);
    expect(store.getState().takeAttachments()).toEqual(['uploads/data.csv']);
    expect(store.getState().attachments.items).toEqual([]);
    expect(store.getState().takeAttachments()).toEqual([]);
  });

  it('removes one attachment', async () => {
    const { store } = setup((route, input) =>
      route === 'workspace.attach'
        ? {
            ok: true,
            data: { path: `uploads/${(input as { name: string }).name}`, bytes: 1, sha256: '0'.repeat(64) },
          }
        : unknown(route, null),
    );
    await store.getState().attachFiles([file('a.txt', new Uint8Array([1])), file('b.txt', new Uint8Array([2]))]);
    const first = store.getState().attachments.items[0]!;
    store.getState().removeAttachment(first.id);
    expect(store.getState().takeAttachments()).toEqual(['uploads/b.txt']);
  });
});
