import type { Page } from 'playwright-core';
import type { EventTopics } from '../../../src-preload/contract/events';
import type { Router } from '../../../src-main/core/api/router';

export const INVOKE_BINDING = '__openai4sInvoke';
export const EMIT_HOOK = '__openai4sEmit';

/**
 * Runs in the page before any of its scripts: defines exactly the object the preload
 * exposes (`window.openai4s = Object.freeze({invoke, on})`). `invoke` goes to the
 * router in the test process through the binding and resolves with the envelope, as
 * `ipcRenderer.invoke` does; `on` listeners are fed by the harness's `emit`, through a
 * hidden hook standing in for the IPC event channel. Written as a string so the test
 * transpiler cannot inject helpers into code that runs in the page.
 */
const INIT_SCRIPT = `(() => {
  const binding = window[${JSON.stringify(INVOKE_BINDING)}];
  const listeners = new Set();
  const invoke = (route, input) => binding(route, input);
  const on = (topic, callback) => {
    const listener = { topic, callback };
    listeners.add(listener);
    return () => { listeners.delete(listener); };
  };
  Object.defineProperty(window, ${JSON.stringify(EMIT_HOOK)}, {
    value: (topic, payload) => {
      for (const l of [...listeners]) if (l.topic === topic) l.callback(payload);
    },
    enumerable: false,
  });
  Object.defineProperty(window, 'openai4s', { value: Object.freeze({ invoke, on }), enumerable: true });
})();`;

/**
 * Binds the page's `window.openai4s` to the real router. The caller info is built like
 * the Electron glue builds it: the calling frame's origin and whether it is the main frame.
 */
export async function bindBridge(page: Page, router: Router): Promise<void> {
  await page.exposeBinding(INVOKE_BINDING, (source, route: unknown, input: unknown) => {
    let origin = '';
    try {
      origin = new URL(source.frame.url()).origin;
    } catch {
      origin = '';
    }
    return router.handle(route, input, {
      origin,
      isMainFrame: source.frame === source.page.mainFrame(),
    });
  });
  await page.addInitScript({ content: INIT_SCRIPT });
}

/** Pushes a main -> renderer event to the page's `on` listeners, like `webContents.send`. */
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
