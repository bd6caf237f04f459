/**
 * The Notebook tab's file browser over the router (issue 25): folders listed and files
 * previewed through safeFs, so a symlink a cell planted (to a file or a folder outside the
 * workspace) is listed as a link and never followed, an escaping path is refused, and a
 * file saved as an artifact becomes a version made by the user.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';
import { createRouter, type Router } from '../../../src-main/core/api/router';
import { WORKSPACE_LIST_LIMIT } from '../../../src-preload/contract/workspace';

let dir: string;
let outside: string;
let core: Core;
let router: Router;
const caller = { origin: 'app://openai4s', isMainFrame: true };
type Answer = { ok: boolean; data?: any; error?: { code: string; message: string } }; // eslint-disable-line @typescript-eslint/no-explicit-any
const call = (route: string, input: unknown) => router.handle(route, input, caller) as Promise<Answer>;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-browse-'));
  outside = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-outside-'));
  fs.writeFileSync(path.join(outside, 'secret.txt'), 'not for the renderer');
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' } });
  router = createRouter(routes, createHandlers(core));
});
afterEach(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(outside, { recursive: true, force: true });
});

function workspaceWithFiles(): { sessionId: string; ws: string } {
  const session = core.ledger.createSession('files');
  const ws = core.kernels.workspaceFor(session.id);
  fs.mkdirSync(path.join(ws, 'data'), { recursive: true });
  fs.writeFileSync(path.join(ws, 'data', 'counts.csv'), 'residue,count\nA,10\nC,6\n');
  fs.writeFileSync(path.join(ws, 'notes.txt'), 'x'.repeat(1000));
  fs.symlinkSync(path.join(outside, 'secret.txt'), path.join(ws, 'leak.txt'));
  fs.symlinkSync(outside, path.join(ws, 'elsewhere'));
  return { sessionId: session.id, ws };
}

describe('the workspace file browser routes', () => {
  it('lists folders first, then files, with sizes; symlinks are links, not their targets', async () => {
    const { sessionId } = workspaceWithFiles();
    const root = await call('workspace.list', { sessionId });
    expect(root.ok).toBe(true);
    expect(root.data.path).toBe('.');
    expect(root.data.entries).toEqual([
      { name: 'data', path: 'data', kind: 'dir', size: null },
      { name: 'elsewhere', path: 'elsewhere', kind: 'link', size: null },
      { name: 'leak.txt', path: 'leak.txt', kind: 'link', size: null },
      { name: 'notes.txt', path: 'notes.txt', kind: 'file', size: 1000 },
    ]);
    expect(root.data.truncated).toBe(false);
    const data = await call('workspace.list', { sessionId, path: 'data' });
    expect(data.data).toEqual({ path: 'data', entries: [{ name: 'counts.csv', path: 'data/counts.csv', kind: 'file', size: 23 }], truncated: false });
  });

  it('previews the start of a file, and refuses symlinks, escapes and folders with a one-line reason', async () => {
    const { sessionId } = workspaceWithFiles();
    const csv = await call('workspace.read', { sessionId, path: 'data/counts.csv' });
    expect(csv.data).toEqual({ path: 'data/counts.csv', size: 23, mime: 'text/csv', base64: Buffer.from('residue,count\nA,10\nC,6\n').toString('base64'), truncated: false });
    const cut = await call('workspace.read', { sessionId, path: 'notes.txt', maxBytes: 10 });
    expect(cut.data).toMatchObject({ size: 1000, truncated: true, base64: Buffer.from('x'.repeat(10)).toString('base64') });

    for (const [p, code] of [
      ['leak.txt', 'refused'],
      ['elsewhere/secret.txt', 'refused'],
      ['../../secret.txt', 'refused'],
      [path.join(outside, 'secret.txt'), 'refused'],
      ['data', 'invalid_input'],
      ['missing.txt', 'not_found'],
    ] as const) {
      const answer = await call('workspace.read', { sessionId, path: p });
      expect(answer, p).toMatchObject({ ok: false, error: { code } });
      expect(answer.error!.message).not.toContain('not for the renderer');
    }
    expect(await call('workspace.list', { sessionId, path: 'elsewhere' })).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(await call('workspace.list', { sessionId: 'no-such-session' })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('saves a file as an artifact version made by the user; a second save is version 2; a symlink is refused', async () => {
    const { sessionId, ws } = workspaceWithFiles();
    const first = await call('workspace.saveArtifact', { sessionId, path: './data/counts.csv' });
    expect(first.data).toMatchObject({ path: 'data/counts.csv', number: 1, mime: 'text/csv', size: 23, provenance: { producer: { kind: 'user' } } });
    fs.appendFileSync(path.join(ws, 'data', 'counts.csv'), 'G,12\n');
    const second = await call('workspace.saveArtifact', { sessionId, path: 'data/counts.csv' });
    expect(second.data).toMatchObject({ number: 2, size: 28, artifactId: first.data.artifactId });
    expect(await call('workspace.saveArtifact', { sessionId, path: 'leak.txt' })).toMatchObject({ ok: false, error: { code: 'refused' } });
    expect(core.provenance.artifacts.list(sessionId).map((a) => [a.path, a.versions])).toEqual([['data/counts.csv', 2]]);
  });

  it('lists at most the limit of a very large folder and says it was cut', async () => {
    const { sessionId, ws } = workspaceWithFiles();
    fs.mkdirSync(path.join(ws, 'many'));
    for (let i = 0; i < WORKSPACE_LIST_LIMIT + 5; i++) fs.writeFileSync(path.join(ws, 'many', `f${String(i).padStart(5, '0')}`), '');
    const many = await call('workspace.list', { sessionId, path: 'many' });
    expect(many.data.entries).toHaveLength(WORKSPACE_LIST_LIMIT);
    expect(many.data.truncated).toBe(true);
  });
});
