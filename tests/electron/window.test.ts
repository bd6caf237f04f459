import { describe, expect, it, vi } from 'vitest';
import { createFakeElectron, navigationEvent, type FakeElectron } from './fakeElectron';

vi.mock('electron', () => createFakeElectron());

const { lockNavigation, secureWebPreferences } = await import('../../src-main/electron/window');

describe('secureWebPreferences', () => {
  it('isolates the renderer: context isolation, sandbox, no Node, web security', () => {
    const prefs = secureWebPreferences('/app/out/preload/index.js');
    expect(prefs).toMatchObject({
      preload: '/app/out/preload/index.js',
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
    });
  });
});

async function lockedWindow() {
  const electron = (await import('electron')) as unknown as FakeElectron;
  const win = new electron.BrowserWindow({});
  const shell = { openExternal: vi.fn(async (_url: string) => undefined) };
  lockNavigation(win as never, shell);
  const navigate = (url: string, event = navigationEvent(url)) => {
    win.webContents.emit('will-navigate', event, url);
    return event;
  };
  return { win, shell, navigate };
}

describe('lockNavigation', () => {
  it('lets the window move within app://openai4s', async () => {
    const { shell, navigate } = await lockedWindow();
    const event = navigate('app://openai4s/index.html#/sessions');
    expect(event.preventDefault).not.toHaveBeenCalled();
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it.each([
    ['https://www.uniprot.org/uniprotkb/P01308', 'https://www.uniprot.org/uniprotkb/P01308'],
    ['http://example.org/a b', 'http://example.org/a%20b'],
    ['HTTPS://EXAMPLE.ORG', 'https://example.org/'],
  ])('stops navigation to %s and hands the parsed URL to the OS browser', async (url, opened) => {
    const { shell, navigate } = await lockedWindow();
    const event = navigate(url);
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
    expect(shell.openExternal).toHaveBeenCalledWith(opened);
  });

  it.each([
    'javascript:alert(1)',
    'file:///etc/passwd',
    'data:text/html,<h1>x</h1>',
    'app://other/index.html',
    'https://user:secret@evil.example/',
    'https://:secret@evil.example/',
    'mailto:someone@example.org',
    'chrome://settings',
    'not a url at all',
    'https://',
  ])('stops navigation to %s and opens nothing', async (url) => {
    const { shell, navigate } = await lockedWindow();
    const event = navigate(url);
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
    expect(shell.openExternal).not.toHaveBeenCalled();
  });

  it('reads the URL from the event, not only the deprecated positional argument', async () => {
    const { shell, win } = await lockedWindow();
    const event = navigationEvent('https://evil.example/');
    // A stale positional URL of our own origin must not let the real target through.
    win.webContents.emit('will-navigate', event, 'app://openai4s/index.html');
    expect(event.preventDefault).toHaveBeenCalledTimes(1);
    expect(shell.openExternal).toHaveBeenCalledWith('https://evil.example/');
  });

  it('stops redirects away from our origin and every <webview>', async () => {
    const { win } = await lockedWindow();
    const away = navigationEvent('https://evil.example/');
    win.webContents.emit('will-redirect', away, away.url);
    expect(away.preventDefault).toHaveBeenCalled();
    const home = navigationEvent('app://openai4s/index.html');
    win.webContents.emit('will-redirect', home, home.url);
    expect(home.preventDefault).not.toHaveBeenCalled();
    const webview = { preventDefault: vi.fn() };
    win.webContents.emit('will-attach-webview', webview, {}, {});
    expect(webview.preventDefault).toHaveBeenCalled();
  });

  it.each([
    ['https://pubchem.ncbi.nlm.nih.gov/', 'https://pubchem.ncbi.nlm.nih.gov/'],
    ['app://openai4s/index.html', null],
    ['javascript:alert(1)', null],
    ['file:///etc/passwd', null],
    ['https://user:pw@evil.example/', null],
    ['about:blank', null],
  ])(
    'window.open(%s) is always denied; only http(s) reaches the OS browser',
    async (url, opened) => {
      const { win, shell } = await lockedWindow();
      const handler = win.webContents.windowOpenHandler;
      expect(handler).toBeTypeOf('function');
      expect(handler!({ url })).toEqual({ action: 'deny' });
      if (opened) expect(shell.openExternal).toHaveBeenCalledWith(opened);
      else expect(shell.openExternal).not.toHaveBeenCalled();
    },
  );
});
