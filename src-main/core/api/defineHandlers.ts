import type { ParsedInput, RouteMap, RouteOutput } from '../../../src-preload/contract/define';

/** Who is calling. The Electron glue fills it from the IPC event; tests and the CLI make one up. */
export interface CallerInfo {
  /** The origin of the calling frame, e.g. `app://openai4s`. */
  origin: string;
  /** True when the call comes from the top-level frame of the window (not an iframe). */
  isMainFrame: boolean;
  /** An id for the window/page that called, for event routing. */
  windowId?: number;
}

export type Handler<D> = (
  input: ParsedInput<D>,
  caller: CallerInfo,
) => RouteOutput<D> | Promise<RouteOutput<D>>;

/** The handler map for a route map: one handler per route, nothing more, nothing less. */
export type HandlersFor<R extends RouteMap> = { [K in keyof R]: Handler<R[K]> };

/**
 * Identity at run time; at compile time it refuses a missing handler (mapped type) and
 * an extra one (the `Record<..., never>` half), which plain spreads would let through.
 */
export function defineHandlers<R extends RouteMap>() {
  return <H extends HandlersFor<R>>(
    handlers: H & Record<Exclude<keyof H, keyof R>, never>,
  ): HandlersFor<R> => handlers;
}
