import { percentile, startProductionApp } from '../support/productionCore';
import type { BenchSuite } from '../types';

/**
 * A trivial cell through the production path: the app's router -> `kernel.execute`
 * handler -> `core.kernels` (supervisor, sandboxed Python worker) and back, as the
 * renderer's Run button sends it (minus the Electron IPC hop). The kernel suite's
 * round-trip row measures the supervisor alone.
 */
const suite: BenchSuite = {
  name: 'cellRoundTrip',
  async run() {
    const app = startProductionApp({ OPENAI4S_SANDBOX: 'auto' });
    try {
      const session = await app.call<{ id: string }>('session.create', { title: 'bench cells' });
      const input = { sessionId: session.id, language: 'python', code: 'pass' };
      for (let i = 0; i < 200; i++) await app.call('kernel.execute', input); // start + warm up
      const times: number[] = [];
      for (let i = 0; i < 1_000; i++) {
        const t = performance.now();
        await app.call('kernel.execute', input);
        times.push(performance.now() - t);
      }
      times.sort((a, b) => a - b);
      const p50 = percentile(times, 50);
      return [
        { metric: 'trivial cell round trip p50 (router kernel.execute -> core.kernels, production)', value: p50, unit: 'ms', target: '≤ 0.25 ms', met: p50 <= 0.25 },
        { metric: 'trivial cell round trip p95 (router kernel.execute -> core.kernels, production)', value: percentile(times, 95), unit: 'ms' },
      ];
    } finally {
      await app.close();
    }
  },
};
export default suite;
