import type { RightTab } from '../../store/types';

/**
 * The global keyboard shortcuts, as data: the handler and the help list read the same
 * table. `mod` is Ctrl (Cmd on macOS). None collides with Electron's default menu
 * accelerators (undo/cut/copy/paste, reload, devtools, zoom, close, minimize).
 */
export type ShortcutAction = 'newSession' | 'focusComposer' | 'stop' | 'sidebar' | 'panel' | 'tab' | 'help';

export interface Shortcut {
  action: ShortcutAction;
  /** How it is written in the help list (Ctrl shown as ⌘ on macOS). */
  keys: string;
  /** The `aria-keyshortcuts` value of the control it stands for. */
  aria?: string;
}

export const SHORTCUTS: readonly Shortcut[] = [
  { action: 'newSession', keys: 'Ctrl+Shift+O', aria: 'Control+Shift+O' },
  { action: 'focusComposer', keys: 'Shift+Esc  /  /', aria: 'Shift+Escape' },
  { action: 'stop', keys: 'Ctrl+.  /  Esc', aria: 'Control+.' },
  { action: 'sidebar', keys: 'Ctrl+B', aria: 'Control+B' },
  { action: 'panel', keys: 'Ctrl+Shift+B', aria: 'Control+Shift+B' },
  { action: 'tab', keys: 'Alt+1 … Alt+6' },
  { action: 'help', keys: '?  /  Ctrl+/' },
];

export const TAB_ORDER: readonly RightTab[] = ['notebook', 'evidence', 'artifacts', 'plan', 'memory', 'jobs'];

export interface KeyLike {
  key: string;
  code: string;
  ctrlKey: boolean;
  metaKey: boolean;
  shiftKey: boolean;
  altKey: boolean;
  /** The focus is in a text field: single keys ("/", "?") are typing there, not shortcuts. */
  typing: boolean;
  isMac: boolean;
}

/** Which shortcut a key press is, if any (pure: the hook and the tests share it). */
export function shortcutOf(e: KeyLike): { action: ShortcutAction; tab?: RightTab } | null {
  const mod = e.isMac ? e.metaKey && !e.ctrlKey : e.ctrlKey && !e.metaKey;
  const key = e.key.toLowerCase();
  if (mod && e.shiftKey && !e.altKey && e.code === 'KeyO') return { action: 'newSession' };
  if (mod && !e.altKey && e.code === 'KeyB') return { action: e.shiftKey ? 'panel' : 'sidebar' };
  if (mod && !e.shiftKey && !e.altKey && (key === '.' || e.code === 'Period')) return { action: 'stop' };
  if (mod && !e.altKey && (key === '/' || e.code === 'Slash')) return { action: 'help' };
  if (e.altKey && !mod && !e.shiftKey && /^Digit[1-6]$/.test(e.code)) {
    return { action: 'tab', tab: TAB_ORDER[Number(e.code.slice(5)) - 1]! };
  }
  if (e.shiftKey && !mod && !e.altKey && e.key === 'Escape') return { action: 'focusComposer' };
  if (!e.typing && !mod && !e.altKey) {
    if (e.key === '/') return { action: 'focusComposer' };
    if (e.key === '?') return { action: 'help' };
  }
  return null;
}
