import { useEffect } from 'react';
import { useAppStoreApi } from '../../store/context';
import { agentWorking } from '../../store/conversationReducer';
import { shortcutOf } from './shortcuts';

/** Below these widths the side panel, then the sidebar, fold away on their own (1024 px: both). */
export const PANEL_FOLD_WIDTH = 1200;
export const SIDEBAR_FOLD_WIDTH = 1100;

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || typeof el.tagName !== 'string') return false;
  return el.isContentEditable || el.tagName === 'TEXTAREA' || el.tagName === 'SELECT' || (el.tagName === 'INPUT' && !['checkbox', 'radio', 'button', 'submit'].includes((el as HTMLInputElement).type));
}

/** Focuses the message box (after React has rendered it, when a view change brings it). */
export function focusComposer(): void {
  requestAnimationFrame(() => document.querySelector<HTMLTextAreaElement>('[data-testid="composer-input"]')?.focus());
}

/**
 * The window's keyboard shortcuts (components/layout/shortcuts.ts) and its width rule:
 * below PANEL_FOLD_WIDTH the side panel folds away, below SIDEBAR_FOLD_WIDTH the sidebar
 * too; growing past a width brings its panel back. Either can be toggled any time.
 */
export function useWorkbenchKeys(onHelp: () => void): void {
  const store = useAppStoreApi();
  useEffect(() => {
    const isMac = /Mac|iPhone|iPad/.test(navigator.platform);
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.isComposing) return;
      const hit = shortcutOf({ key: e.key, code: e.code, ctrlKey: e.ctrlKey, metaKey: e.metaKey, shiftKey: e.shiftKey, altKey: e.altKey, typing: isTyping(e.target), isMac });
      if (!hit) return;
      const s = store.getState();
      const running = agentWorking(s.conversation);
      if (hit.action === 'stop' && !running) return;
      e.preventDefault();
      switch (hit.action) {
        case 'newSession':
          void s.createSession().then((id) => id && focusComposer());
          break;
        case 'focusComposer':
          focusComposer();
          break;
        case 'stop':
          void s.stopRun();
          break;
        case 'sidebar':
          s.toggleSidebar();
          break;
        case 'panel':
          s.toggleRight();
          break;
        case 'tab':
          s.setRightTab(hit.tab!);
          requestAnimationFrame(() => document.getElementById(`tab-${hit.tab}`)?.focus());
          break;
        case 'help':
          onHelp();
          break;
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [store, onHelp]);

  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const rules: [MediaQueryList, (open: boolean) => void][] = [
      [window.matchMedia(`(max-width: ${PANEL_FOLD_WIDTH - 1}px)`), (open) => store.getState().toggleRight(open)],
      [window.matchMedia(`(max-width: ${SIDEBAR_FOLD_WIDTH - 1}px)`), (open) => store.getState().toggleSidebar(open)],
    ];
    const offs = rules.map(([query, setOpen]) => {
      if (query.matches) setOpen(false);
      const onChange = (e: MediaQueryListEvent) => setOpen(!e.matches);
      query.addEventListener('change', onChange);
      return () => query.removeEventListener('change', onChange);
    });
    return () => {
      for (const off of offs) off();
    };
  }, [store]);
}
