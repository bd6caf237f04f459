import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { routes } from '../../../src-preload/contract/routes';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';
import { createRouter } from '../../../src-main/core/api/router';
import { memorySecretStore } from '../../../src-main/core/settings/secretStore';

const KEY = 'sk-ant-settings-key-000042';
let dir: string;
let core: Core | null = null;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-settings-'));
});
afterEach(async () => {
  await core?.close();
  core = null;
  fs.rmSync(dir, { recursive: true, force: true });
});

function routerFor(c: Core) {
  return createRouter(routes, createHandlers(c), { checkSender: () => true });
}
const caller = { origin: 'app://openai4s', isMainFrame: true };
const env = () => ({
  ...process.env,
  OPENAI4S_DATA_DIR: dir,
  OPENAI4S_ANTHROPIC_API_KEY: '',
  OPENAI4S_LLM_API_KEY: '',
  OPENAI4S_KERNEL_PREWARM: '0',
});

describe('settings routes', () => {
  it('keeps the window’s language for main’s dialogs, and refuses one the window does not speak', async () => {
    core = createCore({ env: env() });
    const r = routerFor(core);
    expect(await r.handle('settings.get', {}, caller)).toMatchObject({ ok: true, data: { settings: { defaultProvider: null } } });
    expect(((await r.handle('settings.get', {}, caller)) as { data: { settings: object } }).data.settings).not.toHaveProperty('language');
    let changes = 0;
    core.settings.onLanguageChange(() => changes++);
    expect(await r.handle('settings.language', { language: 'zh-CN' }, caller)).toEqual({ ok: true, data: null });
    await r.handle('settings.language', { language: 'zh-CN' }, caller);
    // Said twice, changed once: the menu is rebuilt once.
    expect(changes).toBe(1);
    expect(await r.handle('settings.language', { language: 'fr' }, caller)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(core.settings.readOrDefaults().language).toBe('zh-CN');
    await core.close();
    core = createCore({ env: env() });
    expect(await routerFor(core).handle('settings.get', {}, caller)).toMatchObject({ ok: true, data: { settings: { language: 'zh-CN' } } });
  });

  it('stores defaults in the ledger and keeps them across a restart', async () => {
    core = createCore({ env: env() });
    const r = routerFor(core);
    const updated = await r.handle(
      'settings.update',
      { defaultProvider: 'deepseek', defaultModel: 'deepseek-chat', sandboxMode: 'enforce' },
      caller,
    );
    expect(updated).toMatchObject({
      ok: true,
      data: {
        settings: {
          defaultProvider: 'deepseek',
          defaultModel: 'deepseek-chat',
          sandboxMode: 'enforce',
        },
        dataDir: dir,
      },
    });
    await core.close();
    core = createCore({ env: env() });
    const again = await routerFor(core).handle('settings.get', {}, caller);
    expect(again).toMatchObject({
      ok: true,
      data: { settings: { defaultProvider: 'deepseek', sandboxMode: 'enforce' } },
    });
    const cleared = await routerFor(core).handle('settings.update', { defaultModel: null }, caller);
    expect(cleared).toMatchObject({
      ok: true,
      data: { settings: { defaultModel: null, defaultProvider: 'deepseek' } },
    });
    expect(
      await routerFor(core).handle('settings.update', { defaultProvider: 'nope' }, caller),
    ).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringMatching(/Unknown provider "nope"/) },
    });
  });

  it('takes a key, never answers with it, and the provider becomes configured from Settings', async () => {
    core = createCore({ env: env(), secrets: memorySecretStore() });
    const r = routerFor(core);
    const before = await core.doctor();
    expect(before.providers.find((p) => p.id === 'anthropic')).toMatchObject({
      configured: false,
      keySource: 'none',
    });
    const answer = await r.handle(
      'settings.key.set',
      { providerId: 'anthropic', key: KEY },
      caller,
    );
    expect(JSON.stringify(answer)).not.toContain(KEY);
    expect(answer).toMatchObject({
      ok: true,
      data: {
        keys: [{ providerId: 'anthropic', hint: '••••0042' }],
        keyStorage: { available: true },
      },
    });
    const after = await core.doctor();
    expect(after.providers.find((p) => p.id === 'anthropic')).toMatchObject({
      configured: true,
      keySource: 'settings',
    });
    expect(JSON.stringify(after)).not.toContain(KEY);
    await r.handle('settings.key.clear', { providerId: 'anthropic' }, caller);
    expect((await core.doctor()).providers.find((p) => p.id === 'anthropic')).toMatchObject({
      configured: false,
    });
  });

  it('without a secret store (CLI, plain Node) refuses a key with the variable to use instead', async () => {
    core = createCore({ env: env() });
    const answer = await routerFor(core).handle(
      'settings.key.set',
      { providerId: 'openai', key: KEY },
      caller,
    );
    expect(answer).toMatchObject({
      ok: false,
      error: { code: 'unavailable', message: expect.stringMatching(/OPENAI4S_<PROVIDER>_API_KEY/) },
    });
    expect(
      await routerFor(core).handle(
        'settings.key.set',
        { providerId: 'openai', key: 'has space inside' },
        caller,
      ),
    ).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });
});
