/**
 * A fake `electron` module with just what src-main/electron uses. The real package's
 * index.js tries to download the Electron binary, which our build machines cannot do,
 * so every test of the glue replaces it: `vi.doMock('electron', () => fake)`.
 * Each fake records what the glue did to it, so the tests read the wiring back.
 */
import { EventEmitter } from 'node:events';
import { vi } from 'vitest';

export interface FakeFrame {
  url: string;
}

/** The handler type of `setWindowOpenHandler`, reduced to what the glue returns. */
type WindowOpenHandler = (details: { url: string }) => { action: 'allow' | 'deny' };

export class FakeWebContents extends EventEmitter {
  private static nextId = 1;
  readonly id = FakeWebContents.nextId++;
  mainFrame: FakeFrame;
  windowOpenHandler: WindowOpenHandler | null = null;
  destroyed = false;
  readonly sent: unknown[][] = [];
  /** Test-only: what the page answers to executeJavaScript (the smoke test asks for the welcome heading). */
  page: (code: string) => unknown = () => null;
  readonly executeJavaScript = vi.fn(async (code: string) => this.page(code));

  constructor(url = 'app://openai4s/index.html') {
    super();
    this.mainFrame = { url };
  }

  setWindowOpenHandler(handler: WindowOpenHandler): void {
    this.windowOpenHandler = handler;
  }
  isDestroyed(): boolean {
    return this.destroyed;
  }
  send(...args: unknown[]): void {
    this.sent.push(args);
  }
}

/** A navigation event as Electron passes it: the details object is also the Event. */
export function navigationEvent(url: string) {
  return { url, isMainFrame: true, isSameDocument: false, frame: null, preventDefault: vi.fn() };
}

export function createFakeElectron(
  options: { singleInstanceLock?: boolean; platform?: string } = {},
) {
  const windows: FakeBrowserWindow[] = [];

  // Like Electron, a closed window throws on use: "Object has been destroyed".
  class FakeBrowserWindow extends EventEmitter {
    readonly webContents = new FakeWebContents();
    readonly loadURL = vi.fn(async (_url: string) => undefined);
    readonly show = vi.fn(() => this.alive());
    readonly focus = vi.fn(() => this.alive());
    readonly restore = vi.fn(() => this.alive());
    minimized = false;
    private destroyed = false;
    constructor(readonly options: Record<string, unknown>) {
      super();
      windows.push(this);
    }
    private alive(): void {
      if (this.destroyed) throw new TypeError('Object has been destroyed');
    }
    isMinimized(): boolean {
      this.alive();
      return this.minimized;
    }
    isDestroyed(): boolean {
      return this.destroyed;
    }
    /** Test-only: the user closes the window. */
    close(): void {
      this.destroyed = true;
      this.webContents.destroyed = true;
      this.emit('closed');
    }
    static getAllWindows(): FakeBrowserWindow[] {
      return windows.filter((w) => !w.destroyed);
    }
  }

  const app = Object.assign(new EventEmitter(), {
    isPackaged: false,
    requestSingleInstanceLock: vi.fn(() => options.singleInstanceLock ?? true),
    quit: vi.fn(),
    exit: vi.fn((_code?: number) => undefined),
    whenReady: vi.fn(() => Promise.resolve()),
    getAppPath: vi.fn(() => process.cwd()),
    getPreferredSystemLanguages: vi.fn(() => ['en-US']),
  });

  const invokeHandlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const messages = new EventEmitter();
  const ipcMain = {
    on: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      messages.on(channel, listener);
    }),
    removeListener: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => void) => {
      messages.removeListener(channel, listener);
    }),
    /** What `ipcRenderer.send(channel, ...args)` reaches in main (nothing when no one listens). */
    send(channel: string, event: unknown, ...args: unknown[]): void {
      messages.emit(channel, event, ...args);
    },
    handle: vi.fn((channel: string, listener: (event: unknown, ...args: unknown[]) => unknown) => {
      if (invokeHandlers.has(channel))
        throw new Error(`Attempted to register a second handler for '${channel}'`);
      invokeHandlers.set(channel, listener);
    }),
    removeHandler: vi.fn((channel: string) => {
      invokeHandlers.delete(channel);
    }),
    /** What `ipcRenderer.invoke(channel, ...args)` reaches in main; rejects like Electron when nothing is bound. */
    async invoke(channel: string, event: unknown, ...args: unknown[]): Promise<unknown> {
      const listener = invokeHandlers.get(channel);
      if (!listener) throw new Error(`No handler registered for '${channel}'`);
      return listener(event, ...args);
    },
    invokeHandlers,
  };

  const schemeHandlers = new Map<
    string,
    (request: { url: string }) => Promise<Response> | Response
  >();
  const protocol = {
    registerSchemesAsPrivileged: vi.fn(),
    handle: vi.fn(
      (scheme: string, handler: (request: { url: string }) => Promise<Response> | Response) => {
        schemeHandlers.set(scheme, handler);
      },
    ),
    schemeHandlers,
  };

  const defaultSession = {
    setPermissionRequestHandler: vi.fn(),
    setPermissionCheckHandler: vi.fn(),
  };

  const Menu = {
    buildFromTemplate: vi.fn((template: unknown[]) => ({ template })),
    setApplicationMenu: vi.fn(),
  };

  return {
    app,
    Menu,
    BrowserWindow: FakeBrowserWindow,
    ipcMain,
    protocol,
    session: { defaultSession },
    shell: {
      openExternal: vi.fn(async (_url: string) => undefined),
      showItemInFolder: vi.fn((_file: string) => undefined),
      openPath: vi.fn(async (_file: string) => ''),
    },
    clipboard: { writeText: vi.fn((_text: string) => undefined) },
    // Answers Deny unless a test says otherwise.
    dialog: { showMessageBox: vi.fn(async () => ({ response: 2, checkboxChecked: false })) as ReturnType<typeof vi.fn> },
    nativeTheme: { shouldUseDarkColors: false },
    safeStorage: {
      isEncryptionAvailable: () => true,
      getSelectedStorageBackend: () => 'gnome_libsecret',
      encryptString: (plain: string) => Buffer.from(`enc:${plain}`),
      decryptString: (buf: Buffer) => buf.toString().replace(/^enc:/, ''),
    },
    /** Test-only: every window the glue created, in order. */
    windows,
  };
}

export type FakeElectron = ReturnType<typeof createFakeElectron>;

/** An IPC invoke event as main sees it: which frame sent it, of which web contents. */
export function invokeEvent(
  sender: FakeWebContents,
  senderFrame: FakeFrame | null | (() => FakeFrame | null) = sender.mainFrame,
) {
  const event = { sender } as { sender: FakeWebContents; senderFrame: FakeFrame | null };
  Object.defineProperty(event, 'senderFrame', {
    get: typeof senderFrame === 'function' ? senderFrame : () => senderFrame,
  });
  return event;
}
