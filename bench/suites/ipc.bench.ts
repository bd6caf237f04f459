import { z } from 'zod';
import { route } from '../../src-preload/contract/define';
import { createRouter } from '../../src-main/core/api/router';
import type { BenchSuite } from '../types';

/** The router's own overhead per request (validation + dispatch), without a transport. */
const suite: BenchSuite = {
  name: 'ipc',
  async run() {
    // A route shaped like the app's (a strict object schema), served from memory; the
    // app's own route map is not used so that new domains never break this suite.
    const routes = { 'bench.echo': route<{ n: number }>()(z.object({ n: z.number().int() }).strict()) };
    const router = createRouter(routes, { 'bench.echo': (input) => ({ n: input.n }) });
    const caller = { origin: 'app://openai4s', isMainFrame: true };
    const n = 50_000;
    for (let i = 0; i < 2_000; i++) await router.handle('bench.echo', { n: i }, caller);
    const t0 = performance.now();
    for (let i = 0; i < n; i++) await router.handle('bench.echo', { n: i }, caller);
    const ms = performance.now() - t0;
    return [
      { metric: 'internal layer: router round trip (validated, in-memory echo route)', value: (ms * 1000) / n, unit: 'µs/call' },
      { metric: 'internal layer: router throughput (echo route)', value: Math.round(n / (ms / 1000)), unit: 'calls/s' },
    ];
  },
};
export default suite;
