import { z } from 'zod';
import type { RunRecord, SessionStreamEvent } from '../../src-preload/contract/sessions';
import { route } from '../../src-preload/contract/define';
import { createRouter } from '../../src-main/core/api/router';
import { createEventForwarder, WindowSubscriptions } from '../../src-main/electron/topicFilter';
import { validAnswer } from '../../tests/support/mockModel';
import { startProductionApp, startScriptedModelProcess } from '../support/productionCore';
import type { BenchRow, BenchSuite } from '../types';

/** The router's own overhead per request (validation + dispatch), without a transport. */
async function routerRows(): Promise<BenchRow[]> {
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
}

const PRINTED_LINES = 2_000;
const LINE = 'x'.repeat(63); // 64 bytes a line with its newline

/** Characters of cell output a session.stream event carries (patches and snapshots of data-cell). */
function cellOutputChars(event: SessionStreamEvent): number {
  const chunk = event.chunk as { type: string; data?: Record<string, unknown>; patch?: { value?: unknown }[] };
  if (chunk.type !== 'data-cell') return 0;
  let n = 0;
  for (const op of chunk.patch ?? []) n += String((op.value as { text?: string } | undefined)?.text ?? '').length;
  const data = chunk.data ?? {};
  for (const key of ['stdout', 'stderr'] as const) n += typeof data[key] === 'string' ? data[key].length : 0;
  for (const piece of (data.output as { text?: string }[] | undefined) ?? []) n += piece.text?.length ?? 0;
  return n;
}

/**
 * Events main sends the window during a streamed run with a printing cell, through the
 * production path: router `run.submit` -> SessionRunner -> sandboxed Python cell ->
 * core.events -> the Electron glue's forwarder (topicFilter), with the window
 * subscribed to what the renderer's store listens to (app.notice, session.stream).
 */
async function forwardingRows(): Promise<BenchRow[]> {
  const cell = `for i in range(${PRINTED_LINES}):\n    print(${JSON.stringify(LINE)})\n`;
  const model = await startScriptedModelProcess([
    { reply: [{ text: `Printing.\n\n\`\`\`python\n${cell}\`\`\`\n` }] },
    { reply: [{ toolCall: { name: 'finalize_response', arguments: validAnswer } }] },
  ]);
  const app = startProductionApp({ ...model.env, OPENAI4S_SANDBOX: 'auto' });
  try {
    const subscriptions = new WindowSubscriptions();
    subscriptions.set(1, ['app.notice', 'session.stream']);
    let kernelOutputEmitted = 0;
    let kernelOutputForwarded = 0;
    let streamCellChars = 0;
    const forwarder = createEventForwarder({
      subscriptions,
      target: () => ({ window: null, id: 1 }),
      send: (_w, topic, payload) => {
        if (topic === 'kernel.output') kernelOutputForwarded += (payload as { text: string }).text.length;
        if (topic === 'session.stream') streamCellChars += cellOutputChars(payload as SessionStreamEvent);
      },
    });
    app.core.events.on('kernel.output', (e) => (kernelOutputEmitted += e.text.length));
    app.core.events.onAny(forwarder.forward);
    const session = await app.call<{ id: string }>('session.create', { title: 'bench forwarding' });
    const run = await app.call<RunRecord>('run.submit', { sessionId: session.id, mutationId: 'bench-forward', message: 'Print.' });
    const done = await app.core.runner.result(run.id);
    if (done.status !== 'completed') throw new Error(`the bench run ended ${done.status}`);
    const printed = PRINTED_LINES * (LINE.length + 1);
    const { emitted, forwarded } = forwarder.counts;
    return [
      { metric: `events emitted on core.events during a streamed run with a cell printing ${PRINTED_LINES} lines (run.submit -> SessionRunner -> kernel)`, value: emitted, unit: 'events' },
      { metric: 'of those, forwarded to the window by the Electron glue (renderer hears app.notice, session.stream)', value: forwarded, unit: 'events' },
      { metric: `kernel.output characters emitted (the cell printed ${printed})`, value: kernelOutputEmitted, unit: 'chars' },
      { metric: 'kernel.output characters forwarded to the window (cell output crosses once, inside session.stream)', value: kernelOutputForwarded, unit: 'chars', target: '0', met: kernelOutputForwarded === 0 },
      { metric: 'cell output characters in forwarded session.stream data-cell chunks, per character printed (live patches + the final cell record)', value: streamCellChars / printed, unit: 'x' },
    ];
  } finally {
    await app.close();
    model.close();
  }
}

const suite: BenchSuite = {
  name: 'ipc',
  async run() {
    return [...(await routerRows()), ...(await forwardingRows())];
  },
};
export default suite;
