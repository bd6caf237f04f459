import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, SettingsView } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// Main's own dialogs (approvals, opening a package) speak the window's language: the window
// says it when Settings show main does not know it, and each time the user switches.
function view(language?: 'zh-CN' | 'en'): SettingsView {
  return {
    settings: { defaultProvider: null, defaultModel: null, sandboxMode: null, ...(language ? { language } : {}) },
    keys: [],
    keyStorage: { available: false, reason: 'test' },
    dataDir: '/data',
    dataDirSource: 'default',
    activeSandboxMode: 'auto',
  };
}

function setup(stored?: 'zh-CN' | 'en') {
  const api = fakeBridgeApi((route): Envelope<unknown> => (route === 'settings.language' ? { ok: true, data: null } : { ok: true, data: view(stored) }));
  window.openai4s = api;
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['zh-CN'] });
  const told = () => api.calls.filter((c) => c.route === 'settings.language').map((c) => c.input);
  return { store, told };
}

afterEach(() => {
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('the window tells main its language', () => {
  it('at start, when main has none or another', async () => {
    const fresh = setup();
    await fresh.store.getState().loadSettings();
    expect(fresh.told()).toEqual([{ language: 'zh-CN' }]);
    const other = setup('en');
    await other.store.getState().loadSettings();
    expect(other.told()).toEqual([{ language: 'zh-CN' }]);
  });

  it('not when main already knows it, and at each switch', async () => {
    const { store, told } = setup('zh-CN');
    await store.getState().loadSettings();
    expect(told()).toEqual([]);
    store.getState().setLanguage('en');
    expect(told()).toEqual([{ language: 'en' }]);
  });

  it('a main that cannot take it leaves the window working', async () => {
    const api = fakeBridgeApi((route): Envelope<unknown> => (route === 'settings.language' ? { ok: false, error: { code: 'internal', message: 'closing' } } : { ok: true, data: view() }));
    window.openai4s = api;
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
    await store.getState().loadSettings();
    store.getState().setLanguage('zh-CN');
    await new Promise((r) => setTimeout(r, 0));
    expect(store.getState().language).toBe('zh-CN');
    expect(store.getState().notices.items).toEqual([]);
  });
});
