import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { route } from '../../../src-preload/contract/define';
import { AppError } from '../../../src-preload/contract/errors';
import { defineHandlers, type CallerInfo } from '../../../src-main/core/api/defineHandlers';
import { createRouter } from '../../../src-main/core/api/router';

// A small route map of our own, so the router is tested apart from the app's routes.
const routes = {
  'echo.say': route<{ said: string; times: number }>()(
    z.object({ text: z.string(), times: z.number().int().positive().default(1) }).strict(),
  ),
  'thing.fail': route<never>()(
    z.object({ kind: z.enum(['app', 'closing', 'error', 'string', 'object', 'bare', 'sync']) }).strict(),
  ),
};

const trusted: CallerInfo = { origin: 'app://openai4s', isMainFrame: true, windowId: 1 };

function makeRouter(options: Parameters<typeof createRouter>[2] = {}) {
  const seen: unknown[] = [];
  const handlers = defineHandlers<typeof routes>()({
    'echo.say': async (input, caller) => {
      seen.push({ input, caller });
      return { said: input.text, times: input.times };
    },
    'thing.fail': (input) => {
      switch (input.kind) {
        case 'app':
          throw new AppError('not_found', 'No such thing: set a real id.');
        case 'closing':
          throw new AppError('unavailable', 'The app is shutting down; try again after it restarts.', 'shutting_down');
        case 'error':
          return Promise.reject(new Error('disk on fire'));
        case 'string':
          // Not an Error: a careless handler or library can throw anything.
          throw 'plain string thrown';
        case 'object':
          throw { weird: true };
        case 'bare':
          // `String()` of this throws; the router must still answer.
          throw Object.create(null);
        case 'sync':
          throw new TypeError('cannot read x of undefined');
      }
    },
  });
  return { router: createRouter(routes, handlers, options), seen };
}

describe('createRouter', () => {
  it('answers a valid call with {ok: true, data} and passes parsed input and caller', async () => {
    const { router, seen } = makeRouter();
    const answer = await router.handle('echo.say', { text: 'hi' }, trusted);
    expect(answer).toEqual({ ok: true, data: { said: 'hi', times: 1 } });
    // The handler sees the zod output (default filled in), not the raw input.
    expect(seen).toEqual([{ input: { text: 'hi', times: 1 }, caller: trusted }]);
    expect(router.routeNames).toEqual(['echo.say', 'thing.fail']);
  });

  it.each([
    ['an unknown route', 'echo.shout'],
    ['__proto__', '__proto__'],
    ['constructor', 'constructor'],
    ['toString', 'toString'],
    ['hasOwnProperty', 'hasOwnProperty'],
    ['valueOf', 'valueOf'],
    ['an empty string', ''],
  ])('refuses %s with unknown_route', async (_label, name) => {
    const { router, seen } = makeRouter();
    const answer = await router.handle(name, {}, trusted);
    expect(answer.ok).toBe(false);
    if (answer.ok) return;
    expect(answer.error.code).toBe('unknown_route');
    expect(answer.error.message).toContain(JSON.stringify(name));
    expect(seen).toEqual([]);
  });

  it.each([
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an object', { toString: () => 'echo.say' }],
    ['an array', ['echo.say']],
  ])('refuses a non-string route (%s) with unknown_route', async (_label, name) => {
    const { router, seen } = makeRouter();
    const answer = await router.handle(name, { text: 'hi' }, trusted);
    expect(answer).toMatchObject({ ok: false, error: { code: 'unknown_route' } });
    expect(seen).toEqual([]);
  });

  it('refuses a route present in the schema map but inherited, not own', async () => {
    const proto = { 'echo.ghost': route<string>()(z.object({}).strict()) };
    const inherited = Object.create(proto) as typeof proto;
    const router = createRouter(inherited, Object.create({ 'echo.ghost': () => 'boo' }));
    const answer = await router.handle('echo.ghost', {}, trusted);
    expect(answer).toMatchObject({ ok: false, error: { code: 'unknown_route' } });
  });

  it('names the case beside the message: a refused request, a crash, a code’s own case, a thrower’s finer one', async () => {
    const { router } = makeRouter();
    const reasonOf = async (route: string, input: unknown) => {
      const answer = await router.handle(route, input, trusted);
      return answer.ok ? null : [answer.error.code, answer.error.reason];
    };
    expect(await reasonOf('echo.say', { text: 5 })).toEqual(['invalid_input', 'invalid_request']);
    expect(await reasonOf('nope.route', {})).toEqual(['unknown_route', 'unknown_route']);
    expect(await reasonOf('thing.fail', { kind: 'sync' })).toEqual(['internal', 'internal']);
    expect(await reasonOf('thing.fail', { kind: 'app' })).toEqual(['not_found', 'not_found']);
    expect(await reasonOf('thing.fail', { kind: 'closing' })).toEqual(['unavailable', 'shutting_down']);
  });

  it('answers a wrong type with invalid_input naming the field', async () => {
    const { router, seen } = makeRouter();
    const answer = await router.handle('echo.say', { text: 5 }, trusted);
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (answer.ok) return;
    expect(answer.error.message).toContain('echo.say');
    expect(answer.error.message).toMatch(/\btext\b/);
    expect(seen).toEqual([]);
  });

  it('answers an extra key on a strict schema with invalid_input naming the key', async () => {
    const { router, seen } = makeRouter();
    const answer = await router.handle('echo.say', { text: 'hi', admin: true }, trusted);
    expect(answer).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (answer.ok) return;
    expect(answer.error.message).toContain('admin');
    expect(seen).toEqual([]);
  });

  it('answers a nested field path and a missing input', async () => {
    const { router } = makeRouter();
    const bad = await router.handle('echo.say', { text: 'x', times: -2 }, trusted);
    expect(bad.ok === false && bad.error.message).toMatch(/times/);
    const missing = await router.handle('echo.say', undefined, trusted);
    expect(missing).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(missing.ok === false && missing.error.message).toContain('(input)');
  });

  it('keeps the code and message of an AppError thrown by a handler', async () => {
    const onInternalError = vi.fn();
    const { router } = makeRouter({ onInternalError });
    const answer = await router.handle('thing.fail', { kind: 'app' }, trusted);
    expect(answer).toEqual({
      ok: false,
      error: { code: 'not_found', message: 'No such thing: set a real id.', reason: 'not_found' },
    });
    // An AppError is an answer, not a crash: nothing is logged.
    expect(onInternalError).not.toHaveBeenCalled();
  });

  it.each([
    ['a rejected Error', 'error', 'disk on fire'],
    ['a synchronously thrown TypeError', 'sync', 'cannot read x of undefined'],
    ['a thrown string', 'string', 'plain string thrown'],
    ['a thrown plain object', 'object', '[object Object]'],
    ['a thrown prototype-less object', 'bare', '[object Object]'],
  ] as const)('turns %s into internal, never rejecting', async (_label, kind, text) => {
    const onInternalError = vi.fn();
    const { router } = makeRouter({ onInternalError });
    const pending = router.handle('thing.fail', { kind }, trusted);
    await expect(pending).resolves.toMatchObject({ ok: false, error: { code: 'internal' } });
    const answer = await pending;
    expect(answer.ok === false && answer.error.message).toContain(text);
    expect(answer.ok === false && answer.error.message).toContain('thing.fail');
    expect(onInternalError).toHaveBeenCalledTimes(1);
    expect(onInternalError.mock.calls[0]![0]).toBe('thing.fail');
  });

  it('still answers internal when the error log hook itself throws', async () => {
    const { router } = makeRouter({
      onInternalError: () => {
        throw new Error('log sink is gone');
      },
    });
    await expect(router.handle('thing.fail', { kind: 'error' }, trusted)).resolves.toMatchObject({
      ok: false,
      error: { code: 'internal', message: expect.stringContaining('disk on fire') },
    });
  });

  it('refuses an untrusted sender with forbidden_sender before looking the route up', async () => {
    const checkSender = vi.fn(
      (caller: CallerInfo) => caller.isMainFrame && caller.origin === 'app://openai4s',
    );
    const { router, seen } = makeRouter({ checkSender });
    const iframe: CallerInfo = { origin: 'app://openai4s', isMainFrame: false };

    // Even an unknown route or a prototype key answers forbidden_sender: the route is never consulted.
    for (const name of ['echo.say', 'nope', '__proto__', 42]) {
      const answer = await router.handle(name, { text: 'hi' }, iframe);
      expect(answer).toEqual({
        ok: false,
        error: { code: 'forbidden_sender', message: expect.any(String), reason: 'forbidden_sender' },
      });
    }
    expect(checkSender).toHaveBeenCalledTimes(4);
    expect(seen).toEqual([]);

    const served = await router.handle('echo.say', { text: 'hi' }, trusted);
    expect(served).toEqual({ ok: true, data: { said: 'hi', times: 1 } });
  });

  it('never touches the route map for a refused sender', async () => {
    const lookups: PropertyKey[] = [];
    const watched = new Proxy(routes, {
      get: (target, key, receiver) => (lookups.push(key), Reflect.get(target, key, receiver)),
      getOwnPropertyDescriptor: (target, key) => (
        lookups.push(key),
        Reflect.getOwnPropertyDescriptor(target, key)
      ),
      has: (target, key) => (lookups.push(key), Reflect.has(target, key)),
    });
    const router = createRouter(
      watched,
      defineHandlers<typeof routes>()({
        'echo.say': (input) => ({ said: input.text, times: input.times }),
        'thing.fail': () => {
          throw new Error('unused');
        },
      }),
      { checkSender: () => false },
    );
    lookups.length = 0;
    await expect(router.handle('echo.say', { text: 'hi' }, trusted)).resolves.toMatchObject({
      ok: false,
      error: { code: 'forbidden_sender' },
    });
    expect(lookups).toEqual([]);
  });

  it('answers internal, without throwing, when the sender check itself throws', async () => {
    const { router, seen } = makeRouter({
      checkSender: () => {
        throw new Error('sender check broke');
      },
    });
    const answer = await router.handle('echo.say', { text: 'hi' }, trusted);
    expect(answer).toMatchObject({ ok: false, error: { code: 'internal' } });
    expect(seen).toEqual([]);
  });
});
