import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  chromium,
  type Browser,
  type BrowserContext,
  type ConsoleMessage,
  type Page,
  type Response,
} from 'playwright-core';
import { routes } from '../../../src-preload/contract/routes';
import type { EventTopics } from '../../../src-preload/contract/events';
import { createHandlers } from '../../../src-main/core/api/handlers';
import { createCore, type Core } from '../../../src-main/core/core';
import { createRouter, type Router } from '../../../src-main/core/api/router';
import type { SecretStore } from '../../../src-main/core/settings/secretStore';
import type { ApprovalPort } from '../../../src-main/core/capabilities/permissions/approvals';
import { createEventForwarder, WindowSubscriptions, type ForwardCounts } from '../../../src-main/electron/topicFilter';
import type { CallerInfo } from '../../../src-main/core/api/defineHandlers';
import { bindBridge, emitEvent } from './bridge';
import { ensureRendererBuild, PRELOAD_FILE, PROJECT_ROOT } from './build';
import { serveRenderer, TEST_ORIGIN, type ServedLog } from './serve';

export const CHROMIUM_PATH = '/usr/bin/chromium';
export const SCREENSHOT_DIR = path.join(PROJECT_ROOT, 'test-results');

/**
 * Software WebGL for the 3D structure viewer: headless Chromium has no GPU, but ANGLE
 * over SwiftShader renders WebGL on the CPU (fine for one small molecule in a test).
 */
const SOFTWARE_WEBGL_ARGS = ['--use-gl=angle', '--use-angle=swiftshader', '--enable-unsafe-swiftshader'];

/** Debian's Chromium, never a downloaded browser; no background traffic of its own. */
export function launchChromium(options: { webgl?: boolean } = {}): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      '--no-sandbox',
      ...(options.webgl ? SOFTWARE_WEBGL_ARGS : ['--disable-gpu']),
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
    ],
  });
}

export interface ShellOptions {
  colorScheme?: 'light' | 'dark';
  /** The browser locale: decides navigator.language and so the default UI language. */
  locale?: string;
  viewport?: { width: number; height: number };
  /** Extra environment for the core, on top of process.env and the temp data dir. */
  env?: NodeJS.ProcessEnv;
  /** Where Settings keeps keys (the app uses safeStorage; tests an in-memory store). */
  secrets?: SecretStore;
  /** Who answers approval questions besides the window (the app: native dialogs); absent: the headless policy. */
  approvals?: ApprovalPort;
}

export interface Shell {
  page: Page;
  context: BrowserContext;
  core: Core;
  router: Router;
  /** The temporary OPENAI4S_DATA_DIR of this shell. */
  dataDir: string;
  served: ServedLog;
  /** Console errors and uncaught page errors (CSP violations show up here). */
  errors: string[];
  /** The topics the page's preload subscribed to (as main's glue records them). */
  subscriptions: WindowSubscriptions;
  /** Core events emitted, and the ones forwarded to the page because it hears their topic. */
  forwarded: Readonly<ForwardCounts>;
  /** Navigates to the app; resolves with the response to index.html. */
  open(): Promise<Response | null>;
  emit<T extends keyof EventTopics>(topic: T, payload: EventTopics[T]): Promise<void>;
  close(): Promise<void>;
}

/** The one window of a shell, as main's glue keys windows (by webContents id). */
const PAGE_WINDOW_ID = 1;

/**
 * A page showing the production renderer, bound to a real core running in this
 * process over a fresh temporary data directory.
 */
export async function openShell(browser: Browser, options: ShellOptions = {}): Promise<Shell> {
  const rendererDir = ensureRendererBuild();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'openai4s-e2e-'));
  const core = createCore({
    env: { ...process.env, ...options.env, OPENAI4S_DATA_DIR: dataDir },
    ...(options.secrets ? { secrets: options.secrets } : {}),
    ...(options.approvals ? { approvals: options.approvals } : {}),
  });
  // The same rule as the Electron glue's isTrustedCaller, for the test origin.
  const isTrusted = (caller: CallerInfo) => caller.isMainFrame && caller.origin === TEST_ORIGIN;
  const router = createRouter(routes, createHandlers(core), { checkSender: isTrusted });
  const context = await browser.newContext({
    colorScheme: options.colorScheme ?? 'light',
    locale: options.locale ?? 'en-US',
    viewport: options.viewport ?? { width: 1320, height: 860 },
    serviceWorkers: 'block',
  });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (msg: ConsoleMessage) => {
    if (msg.type() === 'error') errors.push(msg.text());
  });
  page.on('pageerror', (error) => errors.push(String(error)));
  const served = await serveRenderer(page, rendererDir);
  const subscriptions = new WindowSubscriptions();
  await bindBridge(page, { router, preloadFile: PRELOAD_FILE, subscriptions, windowId: PAGE_WINDOW_ID, isTrusted });
  // Like the Electron glue: a core event goes to the window only if its preload
  // subscribed to the topic. One sent while the page is (re)loading is lost, as in the
  // app; the renderer catches up by seq.
  const forwarder = createEventForwarder({
    subscriptions,
    target: () => (page.isClosed() ? null : { window: page, id: PAGE_WINDOW_ID }),
    send: (target, topic, payload) => {
      emitEvent(target, topic as keyof EventTopics, payload as never).catch(() => undefined);
    },
  });
  const stopForwarding = core.events.onAny(forwarder.forward);

  return {
    page,
    context,
    core,
    router,
    dataDir,
    served,
    errors,
    subscriptions,
    forwarded: forwarder.counts,
    open: () => page.goto(`${TEST_ORIGIN}/index.html`),
    emit: (topic, payload) => emitEvent(page, topic, payload),
    async close() {
      stopForwarding();
      await context.close();
      await core.close();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Saves a screenshot of the whole shell under test-results/. The main area scrolls
 * on its own, so the viewport is first grown to fit its content.
 */
export async function saveScreenshot(page: Page, name: string): Promise<string> {
  const size = page.viewportSize() ?? { width: 1320, height: 860 };
  const needed = Number(
    await page.evaluate(
      `(() => { const m = document.querySelector('main'); return m ? m.scrollHeight - m.clientHeight : 0; })()`,
    ),
  );
  if (needed > 0) await page.setViewportSize({ width: size.width, height: size.height + needed });
  const file = await saveShot(page, name);
  await page.setViewportSize(size);
  return file;
}

/**
 * Before a screenshot: no model text still shown as the plain-text stand-in it has until the
 * markdown renderer's chunk has loaded, fonts loaded, and two frames painted (messages are
 * content-visibility: auto, so the frame right after a scroll may skip the ones it brought in).
 */
export async function settleForScreenshot(page: Page): Promise<void> {
  await page.locator('[data-markdown="loading"]').first().waitFor({ state: 'detached', timeout: 15_000 });
  // Strings, not functions: the page's CSP allows evaluate, not waitForFunction strings.
  await page.evaluate('document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))))');
}

/** A settled screenshot of the viewport (or the whole page) saved under test-results/ as `name`. */
export async function saveShot(page: Page, name: string, options: { fullPage?: boolean } = {}): Promise<string> {
  await settleForScreenshot(page);
  const file = await screenshotPath(name);
  await page.screenshot({ path: file, ...options });
  return file;
}

export async function screenshotPath(name: string): Promise<string> {
  await mkdir(SCREENSHOT_DIR, { recursive: true });
  return path.join(SCREENSHOT_DIR, name);
}
