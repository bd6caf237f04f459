import { lazy } from 'react';

/**
 * The views the start page does not show, each a chunk of its own: the first window parses
 * only the shell, the sidebar and the welcome page (issue 16, first paint). They are
 * fetched when the window is idle after its first paint (`preloadViews`), so opening a
 * session or Settings rarely waits; if it does, the view's place stays empty until its
 * chunk has loaded (a local file, milliseconds).
 */
const loaders = {
  conversation: () => import('../Conversation'),
  rightPanel: () => import('../panel/RightPanel'),
  settings: () => import('../settings/SettingsPanel'),
  skills: () => import('../skills/SkillsPage'),
  system: () => import('../SystemPanel'),
  shortcuts: () => import('./ShortcutsHelp'),
};

export const Conversation = lazy(() => loaders.conversation().then((m) => ({ default: m.Conversation })));
export const RightPanel = lazy(() => loaders.rightPanel().then((m) => ({ default: m.RightPanel })));
export const SettingsPanel = lazy(() => loaders.settings().then((m) => ({ default: m.SettingsPanel })));
export const SkillsPage = lazy(() => loaders.skills().then((m) => ({ default: m.SkillsPage })));
export const SystemPanel = lazy(() => loaders.system().then((m) => ({ default: m.SystemPanel })));
export const ShortcutsHelp = lazy(() => loaders.shortcuts().then((m) => ({ default: m.ShortcutsHelp })));

/** Starts fetching every view's chunk without showing anything; safe to call more than once. */
export function preloadViews(): void {
  for (const load of Object.values(loaders)) {
    void load().catch(() => {
      // The lazy view retries when it renders and shows the failure there.
    });
  }
}
