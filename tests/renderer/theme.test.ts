import { afterEach, describe, expect, it, vi } from 'vitest';
import { applyTheme, resolveTheme } from '../../src-renderer/src/theme';

function fakeSystem(dark: boolean) {
  const listeners = new Set<() => void>();
  const query = { matches: dark, addEventListener: (_: string, l: () => void) => listeners.add(l), removeEventListener: (_: string, l: () => void) => listeners.delete(l) };
  vi.stubGlobal('matchMedia', () => query);
  return {
    query,
    listeners,
    flip(next: boolean) {
      query.matches = next;
      listeners.forEach((l) => l());
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('theme', () => {
  it('puts the resolved theme on <html>: a forced choice wins over the system', () => {
    fakeSystem(true);
    expect(resolveTheme('light')).toBe('light');
    applyTheme('light')();
    expect(document.documentElement.dataset.theme).toBe('light');
    applyTheme('dark')();
    expect(document.documentElement.dataset.theme).toBe('dark');
  });

  it('follows the system with "system", and stops following once unsubscribed', () => {
    const system = fakeSystem(false);
    const stop = applyTheme('system');
    expect(document.documentElement.dataset.theme).toBe('light');
    system.flip(true);
    expect(document.documentElement.dataset.theme).toBe('dark');
    stop();
    expect(system.listeners.size).toBe(0);
  });
});
