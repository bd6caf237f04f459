import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { RunRecord } from '../../src-preload/contract/sessions';
import { validAnswer } from '../../tests/support/mockModel';
import { startProductionApp, startScriptedModelProcess } from '../support/productionCore';
import type { BenchRow, BenchSuite } from '../types';

const DELTAS = 50_000;
const CHARS_PER_DELTA = 8;

/**
 * A run that streams 50k text deltas, through the production path end to end: the
 * router's `run.submit` -> `core.runner` (SessionRunner as buildRunner wires it) -> the
 * OpenAI provider reading SSE from a scripted model on loopback (its own process) ->
 * each chunk stored in the ledger before it is published on `core.events`. Chunks/s
 * counts what the ledger holds for the run; the lag is this process's event loop (the
 * core runs on Electron's main process in the app) while the run streams.
 */
const suite: BenchSuite = {
  name: 'streaming',
  async run() {
    const text = 'lorem ip'.repeat(DELTAS); // 8 characters per SSE delta, no code fence
    const model = await startScriptedModelProcess([
      { reply: [{ text }, { toolCall: { name: 'finalize_response', arguments: validAnswer } }], chunkSize: CHARS_PER_DELTA },
    ]);
    const app = startProductionApp(model.env);
    try {
      const session = await app.call<{ id: string }>('session.create', { title: 'bench streaming' });
      let published = 0;
      app.core.events.on('session.stream', () => published++);
      const lag = monitorEventLoopDelay({ resolution: 1 });
      lag.enable();
      const t0 = performance.now();
      const run = await app.call<RunRecord>('run.submit', { sessionId: session.id, mutationId: 'bench-1', message: 'Stream a long answer.' });
      const done = await app.core.runner.result(run.id);
      const ms = performance.now() - t0;
      lag.disable();
      if (done.status !== 'completed') throw new Error(`the bench run ended ${done.status}`);
      const stored = app.core.ledger.events.readFrom(session.id).filter((e) => e.runId === run.id);
      const textDeltas = stored.filter((e) => e.chunk.type === 'text-delta').length;
      const perSec = stored.length / (ms / 1000);
      const p99 = lag.percentile(99) / 1e6;
      const rows: BenchRow[] = [
        { metric: `streamed chunks through run.submit -> SessionRunner -> ledger -> publish (${stored.length} stored, ${textDeltas} text deltas, scripted SSE model)`, value: Math.round(perSec), unit: 'chunks/s', target: '≥ 50,000 chunks/s', met: perSec >= 50_000 },
        { metric: 'chunks published on core.events during the run', value: published, unit: 'chunks' },
        { metric: `main event-loop lag p99 while the run streams ${DELTAS} deltas (monitorEventLoopDelay)`, value: p99, unit: 'ms', target: '≤ 5 ms', met: p99 <= 5 },
        { metric: 'main event-loop lag max while the run streams', value: lag.max / 1e6, unit: 'ms' },
      ];
      return rows;
    } finally {
      await app.close();
      model.close();
    }
  },
};
export default suite;
