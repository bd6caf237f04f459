import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore } from '../../../src-main/core/core';
import { createRouter } from '../../../src-main/core/api/router';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-sbx-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('the sandbox mode chosen in Settings', () => {
  it('applies to the next kernel without a restart, unless OPENAI4S_SANDBOX is set', async () => {
    const core = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_KERNEL_PREWARM: '0', OPENAI4S_SANDBOX: '' } });
    const router = createRouter(routes, createHandlers(core));
    const caller = { origin: 'app://openai4s', isMainFrame: true };
    try {
      const session = core.ledger.createSession('sbx');
      const first = (await router.handle('kernel.execute', { sessionId: session.id, language: 'python', code: 'print(1)' }, caller)) as { data: { sandbox: { state: string } } };
      expect(first.data.sandbox.state).toBe('sandboxed');
      expect(await router.handle('settings.update', { sandboxMode: 'off' }, caller)).toMatchObject({ ok: true, data: { activeSandboxMode: 'off' } });
      expect((await core.doctor(true)).sandbox).toMatchObject({ mode: 'off', state: 'off' });
      await core.kernels.restart(session.id, 'python');
      const second = (await router.handle('kernel.execute', { sessionId: session.id, language: 'python', code: 'print(2)' }, caller)) as { data: { sandbox: { state: string } } };
      expect(second.data.sandbox.state).toBe('off');
    } finally {
      await core.close();
    }
    const pinned = createCore({ env: { ...process.env, OPENAI4S_DATA_DIR: dir, OPENAI4S_SANDBOX: 'enforce' } });
    try {
      expect(pinned.config.sandboxMode).toBe('enforce');
    } finally {
      await pinned.close();
    }
  }, 60_000);
});
