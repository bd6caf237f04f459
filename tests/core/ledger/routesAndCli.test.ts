import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore } from '../../../src-main/core/core';
import { createRouter } from '../../../src-main/core/api/router';
import { runCli } from '../../../src-main/cli/main';
import { routes } from '../../../src-preload/contract/routes';
import { applyChunks, fold, foldStateAt } from '../../../src-preload/contract/fold';
import type { ChunkPage, FoldedHistory } from '../../../src-preload/contract/chunkPage';
import type { StreamChunk } from '../../../src-preload/contract/stream';
import { foldEarlier, type EarlierPageFetch, type FoldedFetch } from '../../../src-renderer/src/store/earlierHistory';
import { tempDir } from './support';

function env(dataDir: string): NodeJS.ProcessEnv {
  return { OPENAI4S_DATA_DIR: dataDir, OPENAI4S_KERNEL_PREWARM: '0', PATH: process.env.PATH };
}

async function cli(args: string[], dataDir: string): Promise<{ code: number; out: string; err: string }> {
  let out = '';
  let err = '';
  const code = await runCli(args, { out: (t) => (out += `${t}\n`), err: (t) => (err += `${t}\n`) }, env(dataDir));
  return { code, out, err };
}

describe('session routes', () => {
  it('create, list, get, rename (with revision check), history and delete', async () => {
    const core = createCore({ env: env(tempDir()) });
    try {
      const router = createRouter(routes, createHandlers(core));
      const caller = { origin: 'app://openai4s', isMainFrame: true };
      const call = (route: string, input?: unknown) => router.handle(route, input, caller) as Promise<{ ok: boolean; data?: never; error?: { code: string } }>;
      const created = await call('session.create', { title: 'Insulin' });
      expect(created).toMatchObject({ ok: true, data: { title: 'Insulin', revision: 1 } });
      const id = (created.data as unknown as { id: string }).id;
      const { run: queued } = core.ledger.runs.submit(id, 'm1', 'look up INS', 1);
      expect(await call('session.list')).toMatchObject({ ok: true, data: [{ id }] });
      expect(await call('session.get', { sessionId: id })).toMatchObject({ ok: true, data: { session: { revision: 2 }, runs: [{ status: 'queued' }], lastSeq: 0 } });
      core.ledger.runs.start(queued.id, null, null);
      expect(await call('session.rename', { sessionId: id, title: 'x', expectedRevision: 1 })).toMatchObject({ ok: false, error: { code: 'revision_conflict' } });
      expect(await call('session.rename', { sessionId: id, title: 'INS', expectedRevision: 2 })).toMatchObject({ ok: true, data: { title: 'INS', revision: 3 } });
      expect(core.ledger.history(id)).toMatchObject({ lastSeq: 1, messages: [{ role: 'user', parts: [{ type: 'text', text: 'look up INS' }] }] });
      expect(await call('session.create', { title: '' })).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
      expect(await call('session.delete', { sessionId: id })).toMatchObject({ ok: true, data: { deleted: true } });
      expect(await call('session.get', { sessionId: id })).toMatchObject({ ok: false, error: { code: 'not_found' } });
    } finally {
      await core.close();
    }
  });
});

describe('opening a session at its end', () => {
  it('session.open brings whole last turns (at least tailChunks chunks); session.earlier brings the rest as stored JSON text, and together they fold to the history', async () => {
    const core = createCore({ env: env(tempDir()) });
    try {
      const router = createRouter(routes, createHandlers(core));
      const caller = { origin: 'app://openai4s', isMainFrame: true };
      const call = async <T>(route: string, input?: unknown): Promise<T> => {
        const r = (await router.handle(route, input, caller)) as { ok: boolean; data: T; error?: unknown };
        if (!r.ok) throw new Error(JSON.stringify(r.error));
        return r.data;
      };
      const id = core.ledger.createSession('long').id;
      // Five turns of 10 chunks: a user turn, then nine chunks of the answer.
      for (let turn = 0; turn < 5; turn++) {
        core.ledger.events.appendSync(id, null, { type: 'user-message', messageId: `u${turn}`, text: `question ${turn}` });
        core.ledger.events.appendSync(id, null, { type: 'start', messageId: `a${turn}` });
        for (let i = 0; i < 7; i++) core.ledger.events.appendSync(id, null, { type: 'text-delta', id: 't', delta: `${turn}.${i} ` });
        core.ledger.events.appendSync(id, null, { type: 'finish' });
      }
      type Opening = { fromSeq: number; lastSeq: number; events: { seq: number; chunk: StreamChunk }[] };
      // 15 chunks asked for: the turn that starts at or before seq 36 is the one at seq 31.
      const opening = await call<Opening>('session.open', { sessionId: id, tailChunks: 15 });
      expect(opening).toMatchObject({ fromSeq: 31, lastSeq: 50 });
      expect(opening.events.map((e) => e.seq)).toEqual(Array.from({ length: 20 }, (_, i) => 31 + i));
      expect((await call<Opening>('session.open', { sessionId: id })).fromSeq).toBe(1); // shorter than the default tail
      // The earlier chunks, in pages of 7 that stop before the tail; each chunk as the ledger stores it.
      const first = await call<ChunkPage>('session.earlier', { sessionId: id, afterSeq: 0, beforeSeq: 31, limit: 7 });
      expect(first).toMatchObject({ sessionId: id, seqs: [1, 2, 3, 4, 5, 6, 7], runIds: Array(7).fill(null), complete: false });
      expect(JSON.parse(first.lines.split('\n')[0]!)).toEqual({ type: 'user-message', messageId: 'u0', text: 'question 0' });
      // One line per chunk, the page cut after its last one (the ledger read one more to tell).
      expect(first.lines.split('\n').map((line) => JSON.parse(line) as unknown)).toEqual(core.ledger.events.readFrom(id, 0, 7).map((e) => e.chunk));
      expect(await call<ChunkPage>('session.earlier', { sessionId: id, afterSeq: 23, beforeSeq: 31, limit: 7 })).toMatchObject({ seqs: [24, 25, 26, 27, 28, 29, 30], complete: true });
      expect(await call<ChunkPage>('session.earlier', { sessionId: id, afterSeq: 30, beforeSeq: 31, limit: 7 })).toMatchObject({ seqs: [], runIds: [], lines: '', complete: true });
      const pagesAsked: number[] = [];
      const head = await foldEarlier({ page: (request) => (pagesAsked.push(request.afterSeq), call<ChunkPage>('session.earlier', request)) }, id, 31, 7);
      expect(pagesAsked).toEqual([0, 7, 14, 21, 28]);
      const tail = applyChunks(foldStateAt(30), opening.events.map((e) => e.chunk));
      expect([...head, ...tail.messages]).toEqual(core.ledger.history(id).messages);
      expect(fold(core.ledger.events.readFrom(id, 0, 30).map((e) => e.chunk))).toEqual(head);
      expect(await call<ChunkPage>('session.earlier', { sessionId: id, afterSeq: 0, beforeSeq: 0 }).catch((e: Error) => e.message)).toMatch(/beforeSeq/);

      // Stored folded: nothing yet, and asking starts the fold of its turns; then the turns
      // before the tail come folded and no page of chunks is needed.
      expect(await call<FoldedHistory>('session.folded', { sessionId: id, beforeSeq: 31 })).toEqual({ sessionId: id, throughSeq: 0, messages: '[]' });
      await core.ledger.folds.catchUp(id);
      expect(await call<FoldedHistory>('session.folded', { sessionId: id, beforeSeq: 31 })).toMatchObject({ throughSeq: 30 });
      pagesAsked.length = 0;
      const page = (request: Parameters<EarlierPageFetch>[0]) => (pagesAsked.push(request.afterSeq), call<ChunkPage>('session.earlier', request));
      const folded = (request: Parameters<FoldedFetch>[0]) => call<FoldedHistory>('session.folded', request);
      expect(await foldEarlier({ page, folded }, id, 31, 7)).toEqual(head);
      expect(pagesAsked).toEqual([]);
      // Opened at a tail that starts mid-way through the stored turns' reach: the turns before it, then chunks.
      expect(await foldEarlier({ page, folded }, id, 26, 7)).toEqual(fold(core.ledger.events.readFrom(id, 0, 25).map((e) => e.chunk)));
      expect(pagesAsked).toEqual([20]);
      expect(await call<FoldedHistory>('session.folded', { sessionId: 'nope', beforeSeq: 3 }).catch((e: Error) => e.message)).toMatch(/not_found/);
    } finally {
      await core.close();
    }
  });
});

describe('openai4s sessions / show', () => {
  it('prints [] on a fresh data dir and leaves a migrated ledger with an append-only stream', async () => {
    const dir = tempDir();
    const r = await cli(['sessions', '--json'], dir);
    expect(r).toMatchObject({ code: 0, err: '' });
    expect(JSON.parse(r.out)).toEqual([]);
    const db = new Database(path.join(dir, 'ledger.sqlite3'));
    expect(db.pragma('user_version', { simple: true })).toBeGreaterThanOrEqual(1);
    db.prepare(`INSERT INTO sessions (id, title, created_at, updated_at) VALUES ('s', 't', 'now', 'now')`).run();
    db.prepare(`INSERT INTO stream_events (session_id, seq, type, chunk, at) VALUES ('s', 1, 'start', '{"type":"start"}', 0)`).run();
    expect(() => db.prepare('DELETE FROM stream_events').run()).toThrow(/append-only: DELETE/);
    expect(() => db.prepare(`UPDATE stream_events SET chunk = '{}'`).run()).toThrow(/append-only: UPDATE/);
    db.close();
  });

  it('lists sessions newest first and shows one, as text and JSON', async () => {
    const dir = tempDir();
    const core = createCore({ env: env(dir) });
    const first = core.ledger.createSession('first');
    await new Promise((r) => setTimeout(r, 5));
    const second = core.ledger.createSession('second');
    const { run } = core.ledger.runs.submit(second.id, 'm', 'hello');
    core.ledger.runs.start(run.id, null, null);
    for (const chunk of [
      { type: 'start', messageId: 'a1' },
      { type: 'text-start', id: 't' },
      { type: 'text-delta', id: 't', delta: '你好' },
      { type: 'text-end', id: 't' },
      { type: 'finish' },
    ] as const) {
      core.ledger.events.appendSync(second.id, run.id, chunk);
    }
    core.ledger.runs.finish(run.id, { status: 'completed' });
    await core.close();

    const list = JSON.parse((await cli(['sessions', '--json'], dir)).out) as { id: string; title: string; createdAt: string; updatedAt: string }[];
    expect(list.map((s) => s.id)).toEqual([second.id, first.id]);
    expect(Object.keys(list[0]!)).toEqual(expect.arrayContaining(['id', 'title', 'createdAt', 'updatedAt']));
    expect((await cli(['sessions'], dir)).out).toContain('second');

    const text = await cli(['show', second.id], dir);
    expect(text.code).toBe(0);
    expect(text.out).toMatch(/user:\n {2}hello\nassistant:\n {2}你好/);
    const json = JSON.parse((await cli(['show', second.id, '--json'], dir)).out);
    expect(json).toMatchObject({ session: { id: second.id }, runs: [{ id: run.id }], lastSeq: 6, messages: [{ role: 'user' }, { id: 'a1', role: 'assistant' }] });

    const missing = await cli(['show', 'nope'], dir);
    expect(missing.code).toBe(1);
    expect(missing.err).toMatch(/No session "nope".*openai4s sessions/);
    expect((await cli(['show'], dir)).code).toBe(2);
  });
});
