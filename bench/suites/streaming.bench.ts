import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { RunRecord } from '../../src-preload/contract/sessions';
import type { ReplyStep } from '../../src-main/core/llm/scripted/script';
import { validAnswer } from '../../tests/support/mockModel';
import { loadConfigEnv } from '../../src-main/core/config/env';
import { createModel } from '../../src-main/core/llm/model';
import { installInMemoryModel } from '../support/inMemoryModel';
import { schedSince, threadSched } from '../support/threadSched';
import { startProductionApp, startScriptedModelProcess, type ProductionApp } from '../support/productionCore';
import type { BenchRow, BenchSuite } from '../types';

const DELTAS = 50_000;
const WARM_DELTAS = 2_000;
const CHARS_PER_DELTA = 8;

/** A reply of `deltas` 8-character text deltas, then the cited answer (8 characters per SSE delta, no code fence). */
const reply = (deltas: number): ReplyStep => ({
  reply: [{ text: 'lorem ip'.repeat(deltas) }, { toolCall: { name: 'finalize_response', arguments: validAnswer } }],
  chunkSize: CHARS_PER_DELTA,
});

interface Measured {
  /** Chunks the runner handled: every model text delta (merged or not) and every other chunk. */
  chunks: number;
  /** Rows the ledger holds for the run (text deltas that waited for the same commit share one). */
  stored: number;
  textDeltas: number;
  published: number;
  perSec: number;
  cpuUsPerChunk: number;
  /** The main thread's own CPU per chunk (Linux: /proc/thread-self), or null where it cannot be read. */
  mainThreadUsPerChunk: number | null;
  lagP99: number;
  lagMax: number;
  /** How long the main thread was runnable but not running during the run (ms), or null where it cannot be read. */
  mainThreadWaitMs: number | null;
  wallMs: number;
}

/**
 * One run through the production path: the router's `run.submit` -> `core.runner`
 * (SessionRunner as buildRunner wires it) -> the OpenAI provider (AI SDK) reading the
 * model's SSE -> each chunk group-committed in the ledger and published on
 * `core.events` after its commit. Chunks/s counts the chunks the runner handled (each
 * model delta, and the run's other chunks), all of them durable and published when the
 * run ends; text deltas that waited for the same commit are stored (and published) as
 * one row, which the row says. CPU is this process's (user + system) over the run, per
 * chunk; the lag is this
 * process's event loop (the core runs on Electron's main process in the app).
 * What the lag is made of on the 2-vCPU machine (a `perf sched` trace): the main thread's
 * own work is about 1 us a chunk, but when it wakes it waits 2-8 ms for a vCPU, held by V8's
 * helper threads (GC, mostly of the model thread's heap, which the SSE parse fills every
 * 10-30 ms) and the local model process; a larger young generation for the model thread
 * (`resourceLimits`) did not change it. The main thread asking for the shortest time slice
 * (as the app's does: threadPriority.ts `SHORT_SLICE_NS`) about halved that wait.
 */
async function measureRun(app: ProductionApp, mutationId: string): Promise<Measured> {
  const session = await app.call<{ id: string }>('session.create', { title: `bench streaming ${mutationId}` });
  let published = 0;
  const off = app.core.events.on('session.stream', () => published++);
  const lag = monitorEventLoopDelay({ resolution: 1 });
  lag.enable();
  const cpu0 = process.cpuUsage();
  const sched0 = threadSched();
  const t0 = performance.now();
  const run = await app.call<RunRecord>('run.submit', { sessionId: session.id, mutationId, message: 'Stream a long answer.' });
  const done = await app.core.runner.result(run.id);
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const used = schedSince(sched0);
  lag.disable();
  off();
  if (done.status !== 'completed') throw new Error(`the bench run ended ${done.status}: ${done.failureMessage ?? ''}`);
  const stored = app.core.ledger.events.readFrom(session.id).filter((e) => e.runId === run.id);
  // Every model delta is CHARS_PER_DELTA characters: the stored text says how many there were.
  const textChars = stored.reduce((n, e) => n + (e.chunk.type === 'text-delta' ? e.chunk.delta.length : 0), 0);
  const textDeltas = textChars / CHARS_PER_DELTA;
  const chunks = stored.filter((e) => e.chunk.type !== 'text-delta').length + textDeltas;
  return {
    chunks,
    stored: stored.length,
    textDeltas,
    published,
    perSec: chunks / (ms / 1000),
    cpuUsPerChunk: (cpu.user + cpu.system) / chunks,
    mainThreadUsPerChunk: used ? used.onCpuUs / chunks : null,
    lagP99: lag.percentile(99) / 1e6,
    lagMax: lag.max / 1e6,
    mainThreadWaitMs: used ? used.waitMs : null,
    wallMs: ms,
  };
}

/**
 * A warm-up run first (JIT, prepared statements, the tokenizer's tables), then the measured
 * one; the first run's lag is kept too: it is the user's first answer after a start.
 */
async function warmThenMeasure(app: ProductionApp): Promise<{ first: Measured; measured: Measured }> {
  const first = await measureRun(app, 'bench-warm');
  return { first, measured: await measureRun(app, 'bench-measured') };
}

/**
 * The first run of a started app: the OpenAI-family models' token counter (archive/tokens.ts)
 * loads its BPE tables then (gpt-tokenizer's o200k_base: 2.4 MB of script, about 35 MB of
 * heap). On the main thread that load blocked it for 140-330 ms on the bench VM (6-9 ms of
 * lag max in a first run with the estimate counter instead); it now runs on a thread of its
 * own (archive/bpeThread), and this row keeps the first run in sight.
 */
function firstRunRows(short: string, m: Measured): BenchRow[] {
  return [
    { metric: `main event-loop lag max during the app's first run (${WARM_DELTAS} deltas; the tokenizer's tables load then, on their own thread), ${short}`, value: m.lagMax, unit: 'ms' },
    { metric: `that first run, start to end (the measured run above it streams ${DELTAS} deltas), ${short}`, value: m.wallMs, unit: 'ms' },
  ];
}

/** `targets`: the production path's rows carry the targets; a comparison row does not. */
function rows(path: string, m: Measured, targets: boolean): BenchRow[] {
  const short = path.replace(/ \(.*$/, '');
  const rate = targets ? { target: '≥ 50,000 chunks/s', met: m.perSec >= 50_000 } : {};
  const lag = targets ? { target: '≤ 5 ms', met: m.lagP99 <= 5 } : {};
  return [
    { metric: `streamed chunks, ${path} (${m.chunks} chunks: ${m.textDeltas} model text deltas and ${m.chunks - m.textDeltas} others; deltas that arrive in one read reach the SDK as one event; stored and published as ${m.stored} rows)`, value: Math.round(m.perSec), unit: 'chunks/s', ...rate },
    { metric: `process CPU per streamed chunk (user + system, every thread: main, model thread, GC), ${short}`, value: m.cpuUsPerChunk, unit: 'us/chunk' },
    ...(m.mainThreadUsPerChunk === null ? [] : [{ metric: `main thread's own CPU per streamed chunk (/proc/thread-self/schedstat), ${short}`, value: m.mainThreadUsPerChunk, unit: 'us/chunk' }]),
    { metric: `main event-loop lag p99 while the run streams ${DELTAS} deltas (monitorEventLoopDelay), ${short}`, value: m.lagP99, unit: 'ms', ...lag },
    { metric: `main event-loop lag max while the run streams, ${short}`, value: m.lagMax, unit: 'ms' },
    ...(m.mainThreadWaitMs === null ? [] : [{ metric: `main thread runnable but waiting for a CPU during the ${Math.round(m.wallMs)} ms run (/proc/thread-self/schedstat): what the lag is made of when the thread is nearly idle, ${short}`, value: m.mainThreadWaitMs, unit: 'ms' }]),
  ];
}

/**
 * Internal layer: the provider port alone (createModel's stream: text deltas that arrived
 * together joined, the AI SDK's SSE and JSON parsing and validation, our normalisation)
 * over the same in-memory bytes, parts counted and thrown away. CPU per model delta here
 * is a floor for the runner rows above it.
 */
async function providerAlone(): Promise<{ parts: number; cpuUsPerDelta: number }> {
  const memory = installInMemoryModel([reply(WARM_DELTAS), reply(DELTAS)]);
  try {
    const model = createModel('openai', { env: loadConfigEnv('/nonexistent', memory.env) });
    const request = { system: 'bench', messages: [{ role: 'user' as const, content: 'Stream a long answer.' }], tools: [] };
    const pass = async () => {
      let parts = 0;
      const cpu0 = process.cpuUsage();
      for await (const part of model.stream(request)) {
        if (part.type === 'error') throw new Error(`provider bench: ${part.error.message}`);
        parts++;
      }
      const cpu = process.cpuUsage(cpu0);
      return { parts, cpuUsPerDelta: (cpu.user + cpu.system) / DELTAS };
    };
    await pass(); // warm-up
    return await pass();
  } finally {
    memory.uninstall();
  }
}

const suite: BenchSuite = {
  name: 'streaming',
  async run() {
    const out: BenchRow[] = [];

    // The user's path: an OpenAI-compatible server on loopback (its own process), read on the
    // model thread (llm/thread) through node:http (httpFetch.ts) by the AI SDK provider; the
    // parts cross to the main thread in batches.
    const model = await startScriptedModelProcess([reply(WARM_DELTAS), reply(DELTAS)]);
    const socketApp = startProductionApp(model.env);
    try {
      const socket = await warmThenMeasure(socketApp);
      out.push(...rows('socket path (run.submit -> SessionRunner -> model thread: AI SDK over loopback HTTP from a model process at nice 10 -> parts to the main thread -> ledger group commit -> publish)', socket.measured, true));
      out.push(...firstRunRows('socket path', socket.first));
    } finally {
      await socketApp.close();
      model.close();
    }

    // The same replies minus the socket: the recorded SSE bytes served to a fetch replaced
    // in this process, from memory in 16 KiB reads (bench/support/inMemoryModel.ts). A
    // replaced fetch lives on the main thread, so the provider streams there: this row is the
    // whole stack on one thread (as every stream ran before the model thread).
    const memory = installInMemoryModel([reply(WARM_DELTAS), reply(DELTAS)]);
    const memoryApp = startProductionApp(memory.env);
    try {
      out.push(...rows('in-memory path, provider on the main thread (the recorded SSE bytes served to a fetch replaced in process: no socket, no llhttp, no model thread; a comparison, not the app\'s path)', (await warmThenMeasure(memoryApp)).measured, false));
    } finally {
      await memoryApp.close();
      memory.uninstall();
    }

    const provider = await providerAlone();
    out.push({ metric: `internal layer: provider port alone over in-memory SSE (deltas that arrived together joined, AI SDK parse + normalise; ${DELTAS} model deltas -> ${provider.parts} parts, no runner, no ledger)`, value: provider.cpuUsPerDelta, unit: 'us CPU/delta' });
    return out;
  },
};
export default suite;
