import type { ThemeChoice } from './store/types';

const darkQuery = () => (typeof window.matchMedia === 'function' ? window.matchMedia('(prefers-color-scheme: dark)') : null);

/** The theme in force: the user's choice, or the system's when the choice is "system". */
export function resolveTheme(choice: ThemeChoice): 'light' | 'dark' {
  if (choice !== 'system') return choice;
  return darkQuery()?.matches ? 'dark' : 'light';
}

/**
 * Puts the resolved theme on <html data-theme>, the one thing the stylesheets read (so a
 * dark palette is written once, and a forced light theme on a dark system is light
 * everywhere). With "system", follows the system's changes; returns the unsubscribe.
 */
export function applyTheme(choice: ThemeChoice): () => void {
  const root = document.documentElement;
  const set = () => {
    const resolved = resolveTheme(choice);
    root.dataset.theme = resolved;
    root.style.colorScheme = resolved;
  };
  set();
  const query = choice === 'system' ? darkQuery() : null;
  query?.addEventListener('change', set);
  return () => query?.removeEventListener('change', set);
}
