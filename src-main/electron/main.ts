import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { app, BrowserWindow, clipboard, dialog, ipcMain, Menu, nativeTheme, protocol, safeStorage, session, shell } from 'electron';
import { routes } from '../../src-preload/contract/routes';
import { createHandlers } from '../core/api/handlers';
import { createCore, type Core } from '../core/core';
import { createRouter } from '../core/api/router';
import { ensureDataDir, resolveDataDir } from '../core/config/dataDir';
import { APP_VERSION } from '../core/config/version';
import { receivePackage } from '../core/export/receivePackage';
import { publishNotice } from '../core/events/notice';
import { prewarmModelThread } from '../core/llm';
import { checkSystemPackagesOnce } from './firstStart';
import { PackageOpener, packagePathsFromArgv } from './openPackage';
import { DEFAULT_SMOKE_TIMEOUT_MS, runSmokeTest, SMOKE_TEST_FLAG } from './smokeTest';
import { createDialogApprovals } from './approvals';
import { chooseUiLanguage } from '../../src-preload/contract/uiLanguage';
import { menuTemplate } from './appMenu';
import { createSafeStorageSecrets } from './secrets';
import { bindRouterToIpc, bindSubscriptionsToIpc, isTrustedCaller, sendEvent } from './ipc';
import { APP_ORIGIN, APP_SCHEME } from './origin';
import { serveRendererFile } from './protocol';
import { createEventForwarder, WindowSubscriptions } from './topicFilter';
import { lockNavigation, secureWebPreferences } from './window';

// Must run before `ready`: our scheme is standard (real origins) and secure.
protocol.registerSchemesAsPrivileged([
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
]);

let mainWindow: BrowserWindow | null = null;

// `--smoke-test` (the release workflow): a throwaway data root unless one is given, no
// single-instance lock (it must not hand over to a running app), one line, then exit.
const smokeTest = process.argv.includes(SMOKE_TEST_FLAG);
const smokeDataDir = smokeTest && !process.env.OPENAI4S_DATA_DIR ? fs.mkdtempSync(path.join(os.tmpdir(), 'openai4s-smoke-')) : null;
if (smokeDataDir) process.env.OPENAI4S_DATA_DIR = smokeDataDir;

// A packaged app reads envs/, kernel-workers/, skills/ and resources/ from its resources
// folder (electron-builder.yml extraResources); code that calls appRoot() without the
// core's env (the export's host module) finds it here too.
if (app.isPackaged) process.env.OPENAI4S_APP_ROOT ??= process.resourcesPath;

// Session packages the OS hands over (.openai4s.zip): verified first, answered on the window.
const packages = new PackageOpener({
  receive: (file) => receivePackage(file, core ? core.config.dataDir : ensureDataDir(resolveDataDir(process.env))),
  dialog,
  shell,
  window: () => mainWindow,
  notify: (notice) => void (core && publishNotice(core.events, notice)),
});
// macOS sends files as open-file events, possibly before ready; elsewhere they are arguments.
app.on('open-file', (event: { preventDefault(): void }, file: string) => {
  event.preventDefault();
  if (file.toLowerCase().endsWith('.openai4s.zip')) packages.open(file);
});
if (!smokeTest) for (const file of packagePathsFromArgv(process.argv.slice(1), process.cwd())) packages.open(file);

/**
 * From source (`npm start`), node_modules holds better-sqlite3 built for Node (the CLI's);
 * scripts/ensure-electron.cjs builds a copy for Electron's ABI, used here. A packaged app
 * has its addon rebuilt for Electron by electron-builder and needs nothing.
 */
function useElectronSqliteBuild(): void {
  if (app.isPackaged || process.env.OPENAI4S_SQLITE_BINDING) return;
  const dir = path.join(app.getAppPath(), 'node_modules', '.openai4s-electron');
  const wanted = `electron-${process.versions.electron}-`;
  const match = fs.existsSync(dir) ? fs.readdirSync(dir).find((d) => d.startsWith(wanted) && d.endsWith(`-${process.platform}-${process.arch}`)) : undefined;
  if (match) process.env.OPENAI4S_SQLITE_BINDING = path.join(dir, match, 'better_sqlite3.node');
}
let core: Core | null = null;

/** The language of main's dialogs: the window's (Settings), else the system's. */
function uiLanguage() {
  return chooseUiLanguage(core?.settings.readOrDefaults().language, app.getPreferredSystemLanguages());
}
/** The topics each window's renderer listens to; only those are sent to it. */
const subscriptions = new WindowSubscriptions();

function createWindow(): BrowserWindow {
  const win = new BrowserWindow({
    width: 1320,
    height: 860,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'OpenAI4S',
    backgroundColor: nativeTheme.shouldUseDarkColors ? '#16181d' : '#f7f7f5',
    webPreferences: secureWebPreferences(path.join(__dirname, '../preload/index.js')),
  });
  lockNavigation(win, shell);
  win.once('ready-to-show', () => {
    win.show();
    if (!smokeTest) onWindowShown();
  });
  // Read now: a closed window's webContents throws on access.
  const contentsId = win.webContents.id;
  // A crashed renderer hears nothing until its reloaded preload subscribes again.
  win.webContents.on('render-process-gone', () => subscriptions.forget(contentsId));
  // Every window, also one reopened on `activate`, is forgotten when it closes, so
  // `second-instance` never touches a destroyed window (Electron throws on that).
  win.on('closed', () => {
    subscriptions.forget(contentsId);
    if (mainWindow === win) mainWindow = null;
  });
  void win.loadURL(`${APP_ORIGIN}/index.html`);
  return win;
}

/** The first window shown: packages that waited are opened, the AppImage checks its system packages. */
let shownOnce = false;
function onWindowShown(): void {
  packages.markReady();
  if (shownOnce || !core) return;
  shownOnce = true;
  const started = core;
  void checkSystemPackagesOnce({
    env: process.env,
    platform: process.platform,
    version: APP_VERSION,
    dataDir: started.config.dataDir,
    doctor: () => started.doctor(),
    dialog,
    clipboard,
    window: () => mainWindow,
  }).catch((error: unknown) => console.error('[first-start]', error));
}

/** Prints the smoke test's line and exits with its status once the core is closed. */
function finishSmokeTest(code: number, line: string): void {
  (code === 0 ? process.stdout : process.stderr).write(`${line}\n`);
  const closing = core ? core.close() : Promise.resolve();
  core = null;
  void closing
    .catch((error: unknown) => console.error('[smoke-test] close failed', error))
    .finally(() => {
      if (smokeDataDir) fs.rmSync(smokeDataDir, { recursive: true, force: true });
      app.exit(code);
    });
}

if (!smokeTest && !app.requestSingleInstanceLock()) {
  app.quit();
} else {
  app.on('second-instance', (_event: unknown, argv: string[] = [], workingDirectory: string = process.cwd()) => {
    for (const file of packagePathsFromArgv(argv.slice(1), workingDirectory)) packages.open(file);
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });

  app.whenReady().then(() => {
    useElectronSqliteBuild();
    // The renderer asks for nothing: camera, microphone, notifications, ... all denied.
    session.defaultSession.setPermissionRequestHandler((_wc, _perm, callback) => callback(false));
    session.defaultSession.setPermissionCheckHandler(() => false);

    const rendererDir = path.join(__dirname, '../renderer');
    protocol.handle(APP_SCHEME, (request) => serveRendererFile(rendererDir, request.url));

    core = createCore({
      env: {
        ...process.env,
        OPENAI4S_APP_ROOT: process.env.OPENAI4S_APP_ROOT ?? (app.isPackaged ? process.resourcesPath : app.getAppPath()),
      },
      revealPath: async (file) => shell.showItemInFolder(file),
      // Keys entered in Settings, encrypted by the OS (never written in clear).
      secrets: createSafeStorageSecrets(safeStorage, ensureDataDir(resolveDataDir(process.env))),
      // Risky actions become a native question on the app window (never a silent allow).
      approvals: createDialogApprovals({ dialog, window: () => mainWindow, language: uiLanguage }),
      // Compute jobs left running when the app closed are polled again (and harvested if they finished).
      resumeComputeJobs: true,
      // The main thread (window IPC, the run's stream) takes a CPU at once when it wakes.
      mainThreadSlice: true,
    });
    const router = createRouter(routes, createHandlers(core), {
      checkSender: isTrustedCaller,
      onInternalError: (route, error) => console.error(`[ipc] ${route}`, error),
    });
    bindRouterToIpc(ipcMain, router);
    bindSubscriptionsToIpc(ipcMain, subscriptions);
    // A core event goes to the app window only if its renderer listens to the topic
    // (kernel.output, say, is not: cell output reaches it inside session.stream).
    const forwarder = createEventForwarder({
      subscriptions,
      target: () => (mainWindow ? { window: mainWindow.webContents, id: mainWindow.webContents.id } : null),
      send: sendEvent,
    });
    core.events.onAny(forwarder.forward);
    // The menu speaks the window's language, and again when the window switches.
    const setMenu = () => Menu.setApplicationMenu(Menu.buildFromTemplate(menuTemplate(uiLanguage(), { mac: process.platform === 'darwin', packaged: app.isPackaged })));
    setMenu();
    core.settings.onLanguageChange(setMenu);
    mainWindow = createWindow();
    // Provider streams run on a thread of their own; it starts while the window paints.
    const env = core.config.env;
    mainWindow.once('ready-to-show', () => prewarmModelThread(env));

    if (smokeTest) {
      const started = core;
      const timeoutMs = Number(process.env.OPENAI4S_SMOKE_TIMEOUT_MS) || DEFAULT_SMOKE_TIMEOUT_MS;
      void runSmokeTest({ contents: mainWindow.webContents, doctor: () => started.doctor(true), timeoutMs }).then(({ code, line }) => finishSmokeTest(code, line));
    }

    app.on('activate', () => {
      if (BrowserWindow.getAllWindows().length === 0) mainWindow = createWindow();
    });
  });

  app.on('window-all-closed', () => {
    if (process.platform !== 'darwin') app.quit();
  });

  // Quit waits for the core to close: runs cancelled and recorded, kernels stopped, the
  // ledger flushed. The second before-quit (after close) goes through.
  let closing: Promise<void> | null = null;
  app.on('before-quit', (event: { preventDefault(): void }) => {
    if (!core) return;
    event.preventDefault();
    closing ??= core
      .close()
      .catch((error) => console.error('[app] close failed', error))
      .finally(() => {
        core = null;
        app.quit();
      });
  });
}
