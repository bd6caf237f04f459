import type { BrowserWindow as BrowserWindowType, BrowserWindowConstructorOptions, Shell } from 'electron';
import { externalUrlOrNull, isAppUrl } from './origin';

/** The hardened web preferences of every app window. */
export function secureWebPreferences(preloadPath: string): BrowserWindowConstructorOptions['webPreferences'] {
  return {
    preload: preloadPath,
    contextIsolation: true,
    sandbox: true,
    nodeIntegration: false,
    nodeIntegrationInWorker: false,
    nodeIntegrationInSubFrames: false,
    webSecurity: true,
    allowRunningInsecureContent: false,
    webviewTag: false,
    spellcheck: false,
  };
}

/**
 * Locks navigation down: the window never leaves our origin; `window.open` never
 * creates a window; http(s) links go to the OS browser after a URL-parser check.
 */
export function lockNavigation(win: BrowserWindowType, shell: Pick<Shell, 'openExternal'>): void {
  const contents = win.webContents;
  // The positional `url` argument is deprecated; the event's own `url` is the current API.
  contents.on('will-navigate', (event, legacyUrl) => {
    const url = event.url ?? legacyUrl;
    if (isAppUrl(url)) return;
    event.preventDefault();
    const external = externalUrlOrNull(url);
    if (external) void shell.openExternal(external);
  });
  contents.on('will-redirect', (event, legacyUrl) => {
    if (!isAppUrl(event.url ?? legacyUrl)) event.preventDefault();
  });
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    const external = externalUrlOrNull(url);
    if (external) void shell.openExternal(external);
    return { action: 'deny' };
  });
}
