import type { z } from 'zod';

/**
 * One request route: a zod schema for its input and a phantom type for its output.
 * The output is never validated (main is trusted); it exists so that the handler map
 * and the renderer facade agree on it at compile time.
 */
export interface RouteDef<I extends z.ZodType = z.ZodType, O = unknown> {
  readonly input: I;
  /** Phantom: carries the output type only; always undefined at run time. */
  readonly output?: O;
}

/** `route<Output>()(inputSchema)`: curried so the input type is inferred and the output named. */
export function route<O>() {
  return <I extends z.ZodType>(input: I): RouteDef<I, O> => ({ input });
}

export type RouteMap = Record<string, RouteDef>;
export type RouteInput<D> = D extends RouteDef<infer I, unknown> ? z.input<I> : never;
export type ParsedInput<D> = D extends RouteDef<infer I, unknown> ? z.output<I> : never;
export type RouteOutput<D> = D extends RouteDef<z.ZodType, infer O> ? O : never;
