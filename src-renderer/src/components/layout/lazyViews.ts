import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

/**
 * The views the start page does not show, each a chunk of its own: the first window parses
 * only the shell, the sidebar and the welcome page (issue 16, first paint). They are
 * fetched when the window is idle after its first paint (`preloadViews`), so opening a
 * session or Settings rarely waits; if it does, the view's place stays empty until its
 * chunk has loaded (a local file, milliseconds).
 */
const loaders: (() => Promise<unknown>)[] = [];

/** The component `load` resolves to, as a lazy component; `preloadViews` fetches it too. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- React's own `lazy` takes a component of any props
function onDemand<C extends ComponentType<any>>(load: () => Promise<C>): LazyExoticComponent<C> {
  loaders.push(load);
  return lazy(() => load().then((component) => ({ default: component })));
}

export const Conversation = onDemand(() => import('../Conversation').then((m) => m.Conversation));
export const RightPanel = onDemand(() => import('../panel/RightPanel').then((m) => m.RightPanel));
export const SettingsPanel = onDemand(() => import('../settings/SettingsPanel').then((m) => m.SettingsPanel));
export const SkillsPage = onDemand(() => import('../skills/SkillsPage').then((m) => m.SkillsPage));
export const SystemPanel = onDemand(() => import('../SystemPanel').then((m) => m.SystemPanel));
export const ShortcutsHelp = onDemand(() => import('./ShortcutsHelp').then((m) => m.ShortcutsHelp));

/** Starts fetching every view's chunk without showing anything; safe to call more than once. */
export function preloadViews(): void {
  for (const load of loaders) {
    void load().catch(() => {
      // The view's own load, when it first renders, shows the failure (LazyView).
    });
  }
}
