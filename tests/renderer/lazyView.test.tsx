import { cleanup, render, screen } from '@testing-library/react';
import { lazy } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LazyView } from '../../src-renderer/src/components/layout/LazyView';
import { StoreProvider } from '../../src-renderer/src/store/context';
import { createAppStore } from '../../src-renderer/src/store/store';
import { fakeBridgeApi, memoryStorage } from './support';
import { bridge } from '../../src-renderer/src/api/bridge';

afterEach(() => {
  vi.restoreAllMocks();
  cleanup();
  delete (window as unknown as Record<string, unknown>).openai4s;
});

function renderIn(languages: string[], node: React.ReactNode) {
  window.openai4s = fakeBridgeApi(() => ({ ok: true, data: null }));
  const store = createAppStore({ bridge, storage: memoryStorage(), systemLanguages: languages });
  return render(<StoreProvider store={store}>{node}</StoreProvider>);
}

describe('a view loaded on demand', () => {
  it('shows the view once its chunk has loaded', async () => {
    const View = lazy(async () => ({ default: () => <h2>Settings</h2> }));
    renderIn(['en-US'], <LazyView><View /></LazyView>);
    expect(await screen.findByRole('heading', { name: 'Settings' })).toBeTruthy();
  });

  it('whose chunk cannot be loaded says so, with the reason and a reload, instead of a blank window', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined); // React reports the caught error
    const View = lazy(() => Promise.reject(new TypeError('Failed to fetch dynamically imported module: app://openai4s/assets/SettingsPanel-old.js')));
    renderIn(['zh-CN'], <LazyView><View /></LazyView>);
    const alert = await screen.findByTestId('view-failed');
    expect(alert.getAttribute('role')).toBe('alert');
    expect(alert.textContent).toContain('此视图无法加载：Failed to fetch dynamically imported module: app://openai4s/assets/SettingsPanel-old.js');
    expect(screen.getByRole('button', { name: '重新加载窗口' })).toBeTruthy();
  });
});
