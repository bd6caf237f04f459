import { readFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import {
  EVENT_CHANNEL,
  INVOKE_CHANNEL,
  SUBSCRIPTIONS_CHANNEL,
  type EventTopics,
} from '../../../src-preload/contract/events';
import type { CallerInfo } from '../../../src-main/core/api/defineHandlers';
import type { Router } from '../../../src-main/core/api/router';
import { MALFORMED_SUBSCRIPTIONS, type WindowSubscriptions } from '../../../src-main/electron/topicFilter';

export const INVOKE_BINDING = '__openai4sInvoke';
export const SEND_BINDING = '__openai4sSend';
export const EMIT_HOOK = '__openai4sEmit';

/**
 * Runs in the page before any of its scripts: the production preload bundle
 * (out/preload/index.js, built by `npm run build`), given a stand-in for the two parts
 * of `electron` it uses. So `window.openai4s` is the preload's own object, and its
 * listener counting and subscriptions messages are the app's. `ipcRenderer.invoke` goes
 * to the router in the test process through a binding and resolves with the envelope;
 * `ipcRenderer.send` goes to the harness through another (messages of one page arrive in
 * order, as in Electron); the event channel's listeners are fed by the harness's `emit`
 * through a hidden hook. Written as a string so the test transpiler cannot inject
 * helpers into code that runs in the page.
 */
function initScript(preloadSource: string): string {
  return `(() => {
  const invokeBinding = window[${JSON.stringify(INVOKE_BINDING)}];
  const sendBinding = window[${JSON.stringify(SEND_BINDING)}];
  const channels = new Map();
  const ipcRenderer = {
    invoke(channel, ...args) {
      if (channel !== ${JSON.stringify(INVOKE_CHANNEL)}) return Promise.reject(new Error("No handler registered for '" + channel + "'"));
      return invokeBinding(...args);
    },
    send(channel, ...args) {
      sendBinding(channel, ...args);
    },
    on(channel, listener) {
      if (!channels.has(channel)) channels.set(channel, new Set());
      channels.get(channel).add(listener);
      return ipcRenderer;
    },
    removeListener(channel, listener) {
      channels.get(channel)?.delete(listener);
      return ipcRenderer;
    },
  };
  const contextBridge = {
    exposeInMainWorld(key, api) {
      Object.defineProperty(window, key, { value: api, enumerable: true });
    },
  };
  const require = (name) => {
    if (name === 'electron') return { contextBridge, ipcRenderer };
    throw new Error('the e2e preload stand-in provides only electron, not ' + name);
  };
  Object.defineProperty(window, ${JSON.stringify(EMIT_HOOK)}, {
    value: (topic, payload) => {
      for (const l of [...(channels.get(${JSON.stringify(EVENT_CHANNEL)}) ?? [])]) l({}, topic, payload);
    },
    enumerable: false,
  });
  const module = { exports: {} };
  (function (require, module, exports) {
${preloadSource}
  })(require, module, module.exports);
})();`;
}

/** The caller of a binding, built like the Electron glue builds it from an IPC event. */
function callerOfBinding(source: { frame: { url(): string }; page: { mainFrame(): unknown } }): CallerInfo {
  let origin = '';
  try {
    origin = new URL(source.frame.url()).origin;
  } catch {
    origin = '';
  }
  return { origin, isMainFrame: source.frame === source.page.mainFrame() };
}

export interface BridgeBinding {
  router: Router;
  /** The production preload bundle (out/preload/index.js). */
  preloadFile: string;
  /** Where the page's subscriptions go, under `windowId`, as main's ipc glue records them. */
  subscriptions: WindowSubscriptions;
  windowId: number;
  /** The same rule as the router's checkSender (the glue's isTrustedCaller). */
  isTrusted(caller: CallerInfo): boolean;
}

/**
 * Binds the page's `window.openai4s` (the real preload) to the real router, and its
 * subscriptions messages to `subscriptions`, checked like the Electron glue checks them.
 */
export async function bindBridge(page: Page, binding: BridgeBinding): Promise<void> {
  const preloadSource = readFileSync(binding.preloadFile, 'utf8');
  await page.exposeBinding(INVOKE_BINDING, (source, route: unknown, input: unknown) =>
    binding.router.handle(route, input, callerOfBinding(source)),
  );
  await page.exposeBinding(SEND_BINDING, (source, channel: unknown, topics: unknown) => {
    if (channel !== SUBSCRIPTIONS_CHANNEL || !binding.isTrusted(callerOfBinding(source))) return;
    if (!binding.subscriptions.set(binding.windowId, topics)) console.error(`[ipc] ${MALFORMED_SUBSCRIPTIONS}`);
  });
  await page.addInitScript({ content: initScript(preloadSource) });
}

/** Pushes a main -> renderer event to the page's event channel, like `webContents.send`. */
export async function emitEvent<T extends keyof EventTopics>(
  page: Page,
  topic: T,
  payload: EventTopics[T],
): Promise<void> {
  await page.evaluate(
    ([hook, t, p]) =>
      (globalThis as unknown as Record<string, (topic: string, payload: unknown) => void>)[hook]!(
        t,
        p,
      ),
    [EMIT_HOOK, topic, payload] as const,
  );
}
