import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Envelope, SettingsView, StoredKeyInfo } from '../../src-preload/contract';
import { bridge } from '../../src-renderer/src/api/bridge';
import { KeysSection } from '../../src-renderer/src/components/settings/KeysSection';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';

// Issue 21: the Bohrium Science Navigator key is stored in Settings like a provider key.
function view(keys: StoredKeyInfo[]): SettingsView {
  return {
    settings: { defaultProvider: null, defaultModel: null, sandboxMode: null },
    keys,
    keyStorage: { available: true, reason: null },
    dataDir: '/data',
    dataDirSource: 'default',
    activeSandboxMode: 'auto',
  };
}

afterEach(() => {
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

describe('service keys in Settings', () => {
  it('stores the Science Navigator key under "bohrium" and shows only its hint', async () => {
    let keys: StoredKeyInfo[] = [];
    const api = fakeBridgeApi((route, input): Envelope<unknown> => {
      if (route === 'settings.key.set') keys = [{ providerId: (input as { providerId: string }).providerId, hint: '••••0042', updatedAt: '2026-12-01T00:00:00Z' }];
      return { ok: true, data: view(keys) };
    });
    window.openai4s = api;
    const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: ['en-US'] });
    await store.getState().loadSettings();
    render(
      <StoreProvider store={store}>
        <KeysSection />
      </StoreProvider>,
    );
    const row = screen.getByTestId('key-row-bohrium');
    expect(row.textContent).toContain('Bohrium Science Navigator');
    expect(row.textContent).toContain('OPENAI4S_BOHRIUM_ACCESS_KEY in the environment wins over a stored key');
    expect(screen.getByTestId('key-hint-bohrium').textContent).toBe('—');
    fireEvent.change(screen.getByLabelText('API key for Bohrium Science Navigator'), { target: { value: 'bohr-key-0042' } });
    await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Save' })));
    expect(api.calls.find((c) => c.route === 'settings.key.set')?.input).toEqual({ providerId: 'bohrium', key: 'bohr-key-0042' });
    expect(screen.getByTestId('key-hint-bohrium').textContent).toBe('••••0042');
    expect(document.body.textContent).not.toContain('bohr-key-0042');
  });
});
