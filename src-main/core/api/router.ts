import { AppError, type Envelope, type ErrorBody, type ErrorCode, type ErrorReason } from '../../../src-preload/contract/errors';
import type { RouteMap } from '../../../src-preload/contract/define';
import type { CallerInfo, HandlersFor } from './defineHandlers';
import { errorMessage } from '../shared/errorMessage';

export type SenderCheck = (caller: CallerInfo) => boolean;

export interface RouterOptions {
  /** Refuses calls from anything but the app's own main frame; absent = trust every caller. */
  checkSender?: SenderCheck;
  /** Called with unexpected handler errors (not AppErrors), for the log. */
  onInternalError?: (route: string, error: unknown) => void;
}

export interface Router {
  handle(route: unknown, input: unknown, caller: CallerInfo): Promise<Envelope<unknown>>;
  readonly routeNames: readonly string[];
}

/** The case of each code, when the thrower named no finer one (ErrorReason). */
const CODE_REASON: Record<ErrorCode, ErrorReason> = {
  forbidden_sender: 'forbidden_sender',
  unknown_route: 'unknown_route',
  invalid_input: 'invalid_input',
  not_found: 'not_found',
  conflict: 'conflict',
  revision_conflict: 'conflict',
  not_configured: 'not_configured',
  unavailable: 'unavailable',
  refused: 'refused',
  internal: 'internal',
};

const fail = (code: ErrorBody['code'], message: string, reason: ErrorReason = CODE_REASON[code]): Envelope<never> => ({
  ok: false,
  error: { code, message, reason },
});

/**
 * Transport-agnostic request router: bound to `ipcMain.handle` in Electron and to
 * Playwright's `exposeBinding` in the end-to-end tests. It never throws: every
 * outcome, including a handler's crash, is an envelope.
 */
export function createRouter<R extends RouteMap>(
  routes: R,
  handlers: HandlersFor<R>,
  options: RouterOptions = {},
): Router {
  const names = Object.keys(routes);
  const has = (key: string) =>
    Object.prototype.hasOwnProperty.call(routes, key) &&
    Object.prototype.hasOwnProperty.call(handlers, key);

  async function handle(route: unknown, input: unknown, caller: CallerInfo) {
    try {
      if (options.checkSender && !options.checkSender(caller)) {
        return fail('forbidden_sender', 'This caller may not use the app API.');
      }
      if (typeof route !== 'string' || !has(route)) {
        const shown = typeof route === 'string' ? JSON.stringify(route.slice(0, 80)) : typeof route;
        return fail('unknown_route', `Unknown route ${shown}.`);
      }
      const def = routes[route as keyof R]!;
      const parsed = def.input.safeParse(input);
      if (!parsed.success) {
        const issues = parsed.error.issues
          .slice(0, 5)
          .map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`)
          .join('; ');
        return fail('invalid_input', `Invalid input for ${route}: ${issues}`, 'invalid_request');
      }
      const handler = handlers[route as keyof R] as (i: unknown, c: CallerInfo) => unknown;
      const data = await handler(parsed.data, caller);
      return { ok: true as const, data };
    } catch (error) {
      if (error instanceof AppError) return fail(error.code, error.message, error.reason);
      const name = typeof route === 'string' ? route : typeof route;
      try {
        options.onInternalError?.(name, error);
      } catch {
        // A failing log hook must not turn an answer into a rejection across the bridge.
      }
      return fail('internal', `Internal error in ${name}: ${errorMessage(error)}`);
    }
  }

  return { handle, routeNames: names };
}
