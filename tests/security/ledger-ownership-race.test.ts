/**
 * Issue 13, item 9: the ledger ownership race. A short-lived opener (`openai4s sessions`)
 * running while a live run starts must never make a later opener "repair" (declare
 * interrupted) that live run; only a run whose process died may be repaired.
 *
 * Each round: a short opener holds the ledger (this test process, so the timing is exact),
 * the built CLI `run` starts a live run against a loopback model that never answers, the
 * short opener closes, then 20 `sessions --json` run at once. The live run must still be
 * `processing`, its stream untouched. Then the live process is killed with SIGKILL, and
 * the next round's first opener must repair its run. 50 rounds.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LEDGER_FILE, openLedger } from '../../src-main/core/ledger/ledger';
import { startScriptedModel, type ScriptedModel } from '../support/scriptedModel';

const ROUNDS = 50;
const CONCURRENT = 20;
const CLI = path.resolve('bin/openai4s.cjs');

let dir: string;
let server: ScriptedModel;
const children = new Set<ChildProcess>();

beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-ownership-'));
  // Every request hangs: a run stays `processing` until its process dies.
  server = await startScriptedModel([{ hang: true }], { loop: true });
});
afterAll(async () => {
  for (const c of children) c.kill('SIGKILL');
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

function env(): NodeJS.ProcessEnv {
  return {
    ...process.env,
    OPENAI4S_DATA_DIR: dir,
    OPENAI4S_OPENAI_BASE_URL: server.baseUrl,
    OPENAI4S_OPENAI_API_KEY: 'sk-loopback-only',
    OPENAI4S_KERNEL_PREWARM: '0',
  };
}

/** Starts `openai4s run` and resolves with its run id once the run is processing. */
function startLiveRun(round: number): Promise<{ child: ChildProcess; runId: string }> {
  const child = spawn(process.execPath, [CLI, 'run', `live question ${round}`, '--provider', 'openai', '--stream', 'ui'], { env: env() });
  children.add(child);
  let out = '';
  let err = '';
  child.stderr!.on('data', (d) => (err += d));
  return new Promise((resolve, reject) => {
    child.stdout!.on('data', (d) => {
      out += d;
      // The engine emits `start` (messageId = run id) and `start-step` before calling the model.
      const start = /data: (\{"type":"start","messageId":"[^"]+"[^\n]*)\n/.exec(out);
      if (start && out.includes('"type":"start-step"')) resolve({ child, runId: (JSON.parse(start[1]!) as { messageId: string }).messageId });
    });
    child.on('exit', (code, signal) => reject(new Error(`the live run exited early (${code ?? signal}): ${err}`)));
  });
}

function cli(args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(process.execPath, [CLI, ...args], { env: env() });
  children.add(child);
  let out = '';
  let err = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (err += d));
  return new Promise((resolve) =>
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code, out, err });
    }),
  );
}

async function killHard(child: ChildProcess): Promise<void> {
  const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
  child.kill('SIGKILL');
  expect(await exited).toBe('SIGKILL');
  children.delete(child);
}

/** Reads a run straight from the file: a plain read-only connection repairs nothing. */
function inspect(runId: string): { status: string; failureCode: string | null; types: string[] } {
  const db = new Database(path.join(dir, LEDGER_FILE), { readonly: true });
  try {
    const run = db.prepare('SELECT status, failure_code AS failureCode FROM runs WHERE id = ?').get(runId) as { status: string; failureCode: string | null };
    const types = db.prepare('SELECT type FROM stream_events WHERE run_id = ? ORDER BY seq').pluck().all(runId) as string[];
    return { ...run, types };
  } finally {
    db.close();
  }
}

describe('ledger ownership race', () => {
  it(`a live run survives ${CONCURRENT} concurrent short CLI commands, ${ROUNDS} times; once killed, the next opener repairs it`, async () => {
    if (!fs.existsSync(path.resolve('out/main/cli.js'))) return expect.fail('run `npm run build` first: out/main/cli.js is missing');
    let previous: string | null = null;
    for (let round = 0; round < ROUNDS; round++) {
      // A short opener holds the ledger while the live run starts (as `sessions` would).
      const short = openLedger(path.join(dir, LEDGER_FILE));
      if (previous) {
        // The previous live process was killed: this first opener, alone, repairs its run.
        expect(short.repair?.interruptedRuns).toEqual([previous]);
      }
      const live = await startLiveRun(round);
      short.close();

      const results = await Promise.all(Array.from({ length: CONCURRENT }, () => cli(['sessions', '--json'])));
      for (const r of results) {
        expect(r.err).toBe('');
        expect(r.code).toBe(0);
        expect(Array.isArray(JSON.parse(r.out))).toBe(true);
      }

      const seen = inspect(live.runId);
      expect(seen.status, `round ${round}: the live run was repaired while its process was alive`).toBe('processing');
      expect(seen.types).not.toContain('error');
      expect(seen.types).not.toContain('finish');

      await killHard(live.child);
      previous = live.runId;
    }

    // The last run's process is dead: the next short command repairs it.
    const last = await cli(['sessions', '--json']);
    expect(last.code).toBe(0);
    expect(inspect(previous!)).toMatchObject({ status: 'failed', failureCode: 'interrupted' });
    expect(inspect(previous!).types.slice(-2)).toEqual(['error', 'finish']);
  }, 60 * 60_000);
});
