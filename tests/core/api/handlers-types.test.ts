import { describe, expect, it } from 'vitest';
import { createRouter } from '../../../src-main/core/api/router';
// The compile-time proofs live in tests/types (checked by `npm run typecheck`); importing
// the file here also runs its top-level code once, so it stays valid JavaScript.
import { exact, typetestRoutes } from '../../types/handlers.typetest';

describe('defineHandlers', () => {
  it('is the identity at run time and its map serves through the router', async () => {
    expect(Object.keys(exact).sort()).toEqual(Object.keys(typetestRoutes).sort());
    const router = createRouter(typetestRoutes, exact);
    const caller = { origin: 'app://openai4s', isMainFrame: true };
    // The handler receives the zod output: the default `tags: []` is filled in.
    await expect(router.handle('note.create', { title: 'a' }, caller)).resolves.toEqual({
      ok: true,
      data: { id: 'a:0' },
    });
    await expect(router.handle('note.count', {}, caller)).resolves.toEqual({ ok: true, data: 2 });
  });
});
