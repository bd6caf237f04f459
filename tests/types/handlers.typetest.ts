/**
 * Compile-time proofs for the handler map, checked by `npm run typecheck`
 * (tsconfig.node.json includes tests/types). Every `@ts-expect-error` below must
 * meet an error, or tsc fails with "Unused '@ts-expect-error' directive": so a
 * handler map that stopped refusing a missing or extra handler breaks the build.
 * tests/core/api/handlers-types.test.ts imports this file so it also runs once.
 */
import { z } from 'zod';
import { route, type ParsedInput, type RouteInput } from '../../src-preload/contract/define';
import { defineHandlers, type Handler, type HandlersFor } from '../../src-main/core/api/defineHandlers';

export const typetestRoutes = {
  'note.create': route<{ id: string }>()(
    z.object({ title: z.string(), tags: z.array(z.string()).default([]) }).strict(),
  ),
  'note.count': route<number>()(z.object({}).strict()),
};
type R = typeof typetestRoutes;

type Equal<A, B> =
  (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
const assertType = <T extends true>(value: T): T => value;

// The exact map is accepted.
export const exact: HandlersFor<R> = defineHandlers<R>()({
  'note.create': (input) => ({ id: `${input.title}:${input.tags.length}` }),
  'note.count': () => 2,
});

// A missing handler is refused.
defineHandlers<R>()(
  // @ts-expect-error 'note.count' is missing
  {
    'note.create': () => ({ id: 'x' }),
  },
);

// An extra handler is refused (the audited surface has no undeclared entry points).
defineHandlers<R>()({
  'note.create': () => ({ id: 'x' }),
  'note.count': () => 1,
  // @ts-expect-error 'note.delete' is not a route
  'note.delete': () => true,
});

// A handler with the wrong output type is refused.
defineHandlers<R>()({
  // @ts-expect-error note.create answers {id: string}, not a number
  'note.create': () => 7,
  'note.count': () => 1,
});

// The handler's input is the zod *output* type: defaults are filled in, so `tags` is
// a required string[] for the handler, while the caller may leave it out.
assertType<Equal<Parameters<Handler<R['note.create']>>[0], { title: string; tags: string[] }>>(
  true,
);
assertType<Equal<ParsedInput<R['note.create']>, { title: string; tags: string[] }>>(true);
assertType<Equal<RouteInput<R['note.create']>, { title: string; tags?: string[] | undefined }>>(
  true,
);
// @ts-expect-error the handler input is not the zod input type (tags would be optional)
assertType<Equal<ParsedInput<R['note.create']>, RouteInput<R['note.create']>>>(true);

defineHandlers<R>()({
  'note.create': (input) => {
    const tags: string[] = input.tags;
    // @ts-expect-error `title` is a string, not a number
    const n: number = input.title;
    return { id: `${tags.join(',')}${n}` };
  },
  'note.count': () => 0,
});
