import type { Page, Request, Route } from 'playwright-core';
import { APP_ORIGIN } from '../../../src-main/electron/origin';
import { serveRendererFile } from '../../../src-main/electron/protocol';

/**
 * The page's origin in the tests. Chromium cannot load our `app://` scheme without
 * Electron, so the build is served at a made-up https origin (a secure context, like
 * `app://` is in the app), entirely through request routing: no HTTP server exists.
 */
export const TEST_ORIGIN = 'https://openai4s.test';

export interface ServedLog {
  /** Every request answered from the build: url -> status. */
  served: Map<string, number>;
  /** Every request that tried to leave the app (and was aborted). */
  blocked: string[];
}

/**
 * Answers every request of the page: our origin from out/renderer through the app's
 * own file server (same content types, path confinement and CSP header as in
 * Electron), anything else aborted and recorded.
 */
export async function serveRenderer(page: Page, rendererDir: string): Promise<ServedLog> {
  const log: ServedLog = { served: new Map(), blocked: [] };
  await page.route('**/*', async (route: Route, request: Request) => {
    const url = new URL(request.url());
    if (url.origin !== TEST_ORIGIN) {
      log.blocked.push(request.url());
      await route.abort('blockedbyclient');
      return;
    }
    const response = await serveRendererFile(rendererDir, `${APP_ORIGIN}${url.pathname}`);
    log.served.set(request.url(), response.status);
    await route.fulfill({
      status: response.status,
      headers: Object.fromEntries(response.headers.entries()),
      body: Buffer.from(await response.arrayBuffer()),
    });
  });
  return log;
}
