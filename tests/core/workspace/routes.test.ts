import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';
import { createRouter, type Router } from '../../../src-main/core/api/router';
import { verifyExport } from '../../../src-main/core/export/verify';

let dir: string;
let core: Core;
let router: Router;
const revealed: string[] = [];
const caller = { origin: 'app://openai4s', isMainFrame: true };
const call = (route: string, input: unknown) => router.handle(route, input, caller) as Promise<{ ok: boolean; data?: never; error?: { code: string; message: string } }>;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-ws-'));
  core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0' }, revealPath: async (f) => void revealed.push(f) });
  router = createRouter(routes, createHandlers(core));
});
afterEach(async () => {
  await core.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

describe('workspace routes', () => {
  it('attaches a file under uploads/ without overwriting, and refuses paths', async () => {
    const session = core.ledger.createSession('files');
    const base64 = Buffer.from('id,value\n1,2\n').toString('base64');
    const first = await call('workspace.attach', { sessionId: session.id, name: 'data.csv', base64 });
    expect(first).toMatchObject({ ok: true, data: { path: 'uploads/data.csv', bytes: 13 } });
    const second = await call('workspace.attach', { sessionId: session.id, name: 'data.csv', base64 });
    expect(second).toMatchObject({ ok: true, data: { path: 'uploads/data (2).csv' } });
    expect(fs.readFileSync(path.join(core.kernels.workspaceFor(session.id), 'uploads', 'data.csv'), 'utf8')).toBe('id,value\n1,2\n');
    for (const name of ['../evil', 'a/b.txt', '..', 'c\\d']) {
      expect(await call('workspace.attach', { sessionId: session.id, name, base64 }), name).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    }
    expect(await call('workspace.attach', { sessionId: 'nope', name: 'x', base64 })).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('exports a session into the data root and shows it in the file manager', async () => {
    const session = core.ledger.createSession('人胰岛素 / INS');
    const result = await call('session.export', { sessionId: session.id });
    expect(result.ok).toBe(true);
    const data = result.data as unknown as { file: string; files: number; revealed: boolean };
    expect(data.file.startsWith(path.join(dir, 'exports'))).toBe(true);
    expect(path.basename(data.file)).toMatch(/^人胰岛素-INS-.*\.zip$/);
    expect(data.revealed).toBe(true);
    expect(revealed).toEqual([data.file]);
    expect(verifyExport(data.file)).toMatchObject({ ok: true, checked: data.files });
  });
});
