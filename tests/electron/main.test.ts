import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { EVENT_CHANNEL, INVOKE_CHANNEL, SUBSCRIPTIONS_CHANNEL } from '../../src-preload/contract/events';
import {
  createFakeElectron,
  invokeEvent,
  navigationEvent,
  type FakeElectron,
} from './fakeElectron';

// main.ts wires everything at import time, like Electron expects of an entry point;
// each test loads a fresh copy of it against a fresh fake `electron`.
async function loadMain(
  options: Parameters<typeof createFakeElectron>[0] = {},
): Promise<FakeElectron> {
  const fake = createFakeElectron(options);
  vi.resetModules();
  vi.doMock('electron', () => fake);
  await import('../../src-main/electron/main');
  // Let `app.whenReady().then(...)` run.
  await new Promise((resolve) => setImmediate(resolve));
  return fake;
}

let dataDir: string;
const loaded: FakeElectron[] = [];

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-main-'));
  vi.stubEnv('OPENAI4S_DATA_DIR', dataDir);
});

afterEach(async () => {
  // Close each core the way the app does on quit, and wait until it asks to quit again.
  for (const fake of loaded.splice(0)) {
    fake.app.emit('before-quit', { preventDefault: () => {} });
    await vi.waitFor(() => expect(fake.app.quit).toHaveBeenCalled(), { timeout: 15_000 });
  }
  vi.doUnmock('electron');
});

afterAll(() => {
  vi.unstubAllEnvs();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function started() {
  const fake = await loadMain();
  loaded.push(fake);
  return fake;
}

describe('main (Electron entry) against a fake electron', () => {
  it('registers app:// as a privileged standard, secure scheme before ready', async () => {
    const fake = await started();
    expect(fake.protocol.registerSchemesAsPrivileged).toHaveBeenCalledWith([
      expect.objectContaining({
        scheme: 'app',
        privileges: expect.objectContaining({ standard: true, secure: true }),
      }),
    ]);
    expect(fake.protocol.registerSchemesAsPrivileged.mock.invocationCallOrder[0]).toBeLessThan(
      fake.app.whenReady.mock.invocationCallOrder[0]!,
    );
  });

  it('asks for the single-instance lock and quits, wiring nothing, when another instance holds it', async () => {
    const first = await started();
    expect(first.app.requestSingleInstanceLock).toHaveBeenCalledTimes(1);
    expect(first.app.quit).not.toHaveBeenCalled();

    const second = await loadMain({ singleInstanceLock: false });
    expect(second.app.quit).toHaveBeenCalledTimes(1);
    expect(second.app.whenReady).not.toHaveBeenCalled();
    expect(second.ipcMain.handle).not.toHaveBeenCalled();
    expect(second.windows).toHaveLength(0);
  });

  it('denies every permission request and check', async () => {
    const fake = await started();
    const { setPermissionRequestHandler, setPermissionCheckHandler } = fake.session.defaultSession;
    expect(setPermissionRequestHandler).toHaveBeenCalledTimes(1);
    const requestHandler = setPermissionRequestHandler.mock.calls[0]![0] as (
      wc: unknown,
      permission: string,
      callback: (granted: boolean) => void,
    ) => void;
    for (const permission of [
      'media',
      'geolocation',
      'notifications',
      'clipboard-read',
      'openExternal',
    ]) {
      const callback = vi.fn();
      requestHandler({}, permission, callback);
      expect(callback).toHaveBeenCalledExactlyOnceWith(false);
    }
    const checkHandler = setPermissionCheckHandler.mock.calls[0]![0] as (
      ...args: unknown[]
    ) => boolean;
    expect(checkHandler(null, 'media', 'app://openai4s', {})).toBe(false);
  });

  it('serves the renderer over app:// only, 404 for other hosts', async () => {
    const fake = await started();
    const handler = fake.protocol.schemeHandlers.get('app');
    expect(handler).toBeTypeOf('function');
    expect((await handler!({ url: 'app://other/index.html' })).status).toBe(404);
    expect((await handler!({ url: 'app://openai4s/%2e%2e%2fpackage.json' })).status).toBe(404);
  });

  it('opens one hardened window on app://openai4s with navigation locked', async () => {
    const fake = await started();
    expect(fake.windows).toHaveLength(1);
    const win = fake.windows[0]!;
    expect(win.options.webPreferences).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      preload: expect.stringMatching(/preload[\\/]index\.js$/),
    });
    expect(win.loadURL).toHaveBeenCalledWith('app://openai4s/index.html');
    expect(win.webContents.windowOpenHandler?.({ url: 'https://example.org/' })).toEqual({
      action: 'deny',
    });
    const away = navigationEvent('https://evil.example/');
    win.webContents.emit('will-navigate', away, away.url);
    expect(away.preventDefault).toHaveBeenCalled();
    expect(fake.shell.openExternal).toHaveBeenCalledWith('https://evil.example/');
  });

  it('binds the router to the IPC funnel with the sender check', async () => {
    const fake = await started();
    expect(fake.ipcMain.handle).toHaveBeenCalledTimes(1);
    expect(fake.ipcMain.handle.mock.calls[0]![0]).toBe(INVOKE_CHANNEL);
    const contents = fake.windows[0]!.webContents;

    const iframe = invokeEvent(contents, { url: 'app://openai4s/index.html' });
    await expect(
      fake.ipcMain.invoke(INVOKE_CHANNEL, iframe, 'doctor.get', {}),
    ).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    contents.mainFrame = { url: 'https://evil.example/' };
    await expect(
      fake.ipcMain.invoke(INVOKE_CHANNEL, invokeEvent(contents), 'doctor.get', {}),
    ).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    contents.mainFrame = { url: 'app://openai4s/index.html' };
    for (const name of ['__proto__', 'constructor', 'no.such.route']) {
      await expect(
        fake.ipcMain.invoke(INVOKE_CHANNEL, invokeEvent(contents), name, {}),
      ).resolves.toMatchObject({
        ok: false,
        error: { code: 'unknown_route' },
      });
    }
    await expect(
      fake.ipcMain.invoke(INVOKE_CHANNEL, invokeEvent(contents), 'doctor.get', { refresh: 'yes' }),
    ).resolves.toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('refresh') },
    });
  });

  it('serves doctor.get from the real core to our main frame', async () => {
    const fake = await started();
    const contents = fake.windows[0]!.webContents;
    const answer = (await fake.ipcMain.invoke(
      INVOKE_CHANNEL,
      invokeEvent(contents),
      'doctor.get',
      {},
    )) as {
      ok: boolean;
      data?: { dataDir: string };
    };
    expect(answer.ok).toBe(true);
    expect(answer.data?.dataDir).toBe(dataDir);
  });

  it('forwards core events to the window on the one event channel', async () => {
    vi.stubEnv('OPENAI4S_ARK_API_KEY', '');
    vi.stubEnv('OPENAI4S_LLM_API_KEY', '');
    vi.stubEnv('OPENAI4S_PROVIDER', '');
    const fake = await started();
    const contents = fake.windows[0]!.webContents;
    const invoke = (route: string, input: unknown) =>
      fake.ipcMain.invoke(INVOKE_CHANNEL, invokeEvent(contents), route, input) as Promise<{ ok: boolean; data: { id: string } }>;
    const session = await invoke('session.create', { title: 'events' });
    // The renderer's preload says which topics it listens to.
    fake.ipcMain.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(contents), ['session.stream']);
    // No key for the default provider: the run fails at once, and its chunks are still published.
    await invoke('run.submit', { sessionId: session.data.id, mutationId: 'm', message: 'hi' });
    // Chunks are published once durable (group commit), so they may arrive over a few turns.
    const chunks = () =>
      contents.sent
        .filter((a) => a[0] === EVENT_CHANNEL && a[1] === 'session.stream')
        .map((a) => (a[2] as { chunk: { type: string } }).chunk.type);
    await vi.waitFor(() => expect(chunks()).toContain('finish'));
    expect(chunks()).toEqual(['user-message', 'start', 'message-metadata', 'error', 'finish']);
  });

  it('sends a window only the topics its renderer subscribed to, until it reloads or closes', async () => {
    vi.stubEnv('OPENAI4S_ARK_API_KEY', '');
    vi.stubEnv('OPENAI4S_LLM_API_KEY', '');
    vi.stubEnv('OPENAI4S_PROVIDER', '');
    const fake = await started();
    const win = fake.windows[0]!;
    const contents = win.webContents;
    const invoke = (route: string, input: unknown) =>
      fake.ipcMain.invoke(INVOKE_CHANNEL, invokeEvent(contents), route, input) as Promise<{ ok: boolean; data: { id: string } }>;
    const { data: session } = await invoke('session.create', { title: 'subscriptions' });
    const submit = async (mutationId: string) => {
      const { data: run } = await invoke('run.submit', { sessionId: session.id, mutationId, message: 'hi' });
      // A run ends only after its last chunk is published (or dropped by the filter).
      await vi.waitFor(async () => {
        const state = (await invoke('run.state', { sessionId: session.id })) as unknown as { data: { active: string | null; queued: string[] } };
        expect(state.data).toEqual({ active: null, queued: [] });
      });
      expect(run.id).toBeTruthy();
    };
    const streamed = () => contents.sent.filter((a) => a[0] === EVENT_CHANNEL && a[1] === 'session.stream').length;

    await submit('not-subscribed');
    expect(streamed()).toBe(0);

    // A subframe or a foreign origin cannot subscribe the window.
    fake.ipcMain.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(contents, { url: 'app://openai4s/index.html' }), ['session.stream']);
    fake.ipcMain.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(contents, { url: 'https://evil.example/' }), ['session.stream']);
    await submit('untrusted');
    expect(streamed()).toBe(0);

    fake.ipcMain.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(contents), ['session.stream']);
    await submit('subscribed');
    await vi.waitFor(() => expect(streamed()).toBeGreaterThan(0));
    const whileSubscribed = streamed();

    // A reloaded document's preload starts from [].
    fake.ipcMain.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(contents), []);
    await submit('reloaded');
    expect(streamed()).toBe(whileSubscribed);

    fake.ipcMain.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(contents), ['session.stream']);
    win.close();
    const afterClose = contents.sent.length;
    await submit('closed');
    expect(contents.sent.length).toBe(afterClose);
  });

  it('does not send kernel output as its own topic to a renderer that does not listen to it', async () => {
    const fake = await started();
    const contents = fake.windows[0]!.webContents;
    const invoke = (route: string, input: unknown) =>
      fake.ipcMain.invoke(INVOKE_CHANNEL, invokeEvent(contents), route, input) as Promise<{ ok: boolean; data: { id: string; stdout: string } }>;
    // What the renderer's store listens to.
    fake.ipcMain.send(SUBSCRIPTIONS_CHANNEL, invokeEvent(contents), ['app.notice', 'session.stream']);
    const { data: session } = await invoke('session.create', { title: 'kernel output' });
    const cell = await invoke('kernel.execute', { sessionId: session.id, language: 'python', code: 'print("once")' });
    expect(cell.data.stdout).toBe('once\n');
    expect(contents.sent.filter((a) => a[0] === EVENT_CHANNEL).map((a) => a[1])).toEqual([]);
  }, 30_000);

  it('asks a risky host call with a native dialog on the app window; Deny reaches the cell', async () => {
    const fake = await started();
    const win = fake.windows[0]!;
    const contents = win.webContents;
    const invoke = (route: string, input: unknown) =>
      fake.ipcMain.invoke(INVOKE_CHANNEL, invokeEvent(contents), route, input) as Promise<{ ok: boolean; data: { id: string; stdout: string } }>;
    const session = await invoke('session.create', { title: 'approvals' });
    const cell = await invoke('kernel.execute', {
      sessionId: session.data.id,
      language: 'python',
      code: 'try:\n    host.web_fetch(url="https://example.org/")\nexcept Exception as e:\n    print("refused:", e)',
    });
    expect(cell.ok).toBe(true);
    expect(fake.dialog.showMessageBox).toHaveBeenCalledTimes(1);
    const [parent, options] = fake.dialog.showMessageBox.mock.calls[0] as unknown as [unknown, { buttons: string[]; detail: string }];
    expect(parent).toBe(win);
    expect(options.buttons).toEqual(['Allow once', 'Allow for this session', 'Deny']);
    expect(options.detail).toContain('example.org');
    expect(cell.data.stdout).toMatch(/refused: .*denied/i);
  }, 30_000);

  it('stores a key entered in Settings encrypted with safeStorage, never in clear', async () => {
    const fake = await started();
    const contents = fake.windows[0]!.webContents;
    const answer = (await fake.ipcMain.invoke(INVOKE_CHANNEL, invokeEvent(contents), 'settings.key.set', { providerId: 'deepseek', key: 'sk-deepseek-secret-1234' })) as { ok: boolean; data?: unknown };
    expect(answer.ok).toBe(true);
    expect(JSON.stringify(answer.data)).not.toContain('sk-deepseek-secret-1234');
    const stored = fs.readFileSync(path.join(dataDir, 'secrets.json'), 'utf8');
    expect(stored).not.toContain('sk-deepseek-secret-1234');
    const doctor = (await fake.ipcMain.invoke(INVOKE_CHANNEL, invokeEvent(contents), 'doctor.get', { refresh: true })) as { data: { providers: { id: string; configured: boolean; keySource: string }[] } };
    expect(doctor.data.providers.find((p) => p.id === 'deepseek')).toMatchObject({ configured: true, keySource: 'settings' });
  });

  it('focuses the existing window on a second instance and quits when all windows close (not on macOS)', async () => {
    const fake = await started();
    const win = fake.windows[0]!;
    win.minimized = true;
    fake.app.emit('second-instance');
    expect(win.restore).toHaveBeenCalled();
    expect(win.focus).toHaveBeenCalled();
    fake.app.emit('window-all-closed');
    if (process.platform === 'darwin') expect(fake.app.quit).not.toHaveBeenCalled();
    else expect(fake.app.quit).toHaveBeenCalledTimes(1);
  });

  it('shows the window once it is ready and reopens one on activate when none is left', async () => {
    const fake = await started();
    const win = fake.windows[0]!;
    expect(win.show).not.toHaveBeenCalled();
    win.emit('ready-to-show');
    expect(win.show).toHaveBeenCalledTimes(1);
    fake.app.emit('activate');
    expect(fake.windows).toHaveLength(1);
    win.close();
    fake.app.emit('activate');
    expect(fake.windows).toHaveLength(2);
    fake.app.emit('second-instance');
    expect(fake.windows[1]!.focus).toHaveBeenCalled();
  });

  it('forgets a reopened window once it closes, so a second instance does not touch a destroyed one', async () => {
    const fake = await started();
    fake.windows[0]!.close();
    fake.app.emit('activate');
    fake.windows[1]!.close();
    expect(() => fake.app.emit('second-instance')).not.toThrow();
  });
});
