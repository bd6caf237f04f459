/**
 * The benchmark runner: runs the suites it is given (or those named on the command line),
 * prints one table per suite and writes all rows as JSON under bench-results/. Targets are
 * printed beside the measurements; they are never asserted in tests.
 *
 * `npm run bench` does not run this file through tsx: scripts/bench.mjs bundles it with
 * every suite and the app's code the way the release build bundles the app, then runs the
 * bundle under plain Node (why: see that script).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BenchRow, BenchSuite } from './types';
import { readCpuTimes, stealPercent } from './support/cpuSteal';

function printTable(suite: string, rows: BenchRow[]): void {
  const header = ['metric', 'value', 'unit', 'target', 'met'];
  const body = rows.map((r) => [
    r.metric,
    Number.isInteger(r.value) ? String(r.value) : r.value.toFixed(r.value < 10 ? 3 : 1),
    r.unit,
    r.target ?? '',
    r.met === undefined ? '' : r.met ? 'yes' : 'NO',
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => b[i]!.length)));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i]!)).join('  ');
  console.log(`\n## ${suite}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const b of body) console.log(line(b));
}

/** Set in a suite's own process: the file its rows are written to for the parent to collect. */
const ROWS_FILE_ENV = 'OPENAI4S_BENCH_ROWS_FILE';

/** Runs one suite in this process; its rows, with the machine's CPU steal while it ran. */
async function runSuite(suite: BenchSuite): Promise<BenchRow[]> {
  const before = readCpuTimes();
  const rows = await suite.run();
  const steal = stealPercent(before, readCpuTimes());
  if (steal !== null) rows.push({ metric: 'machine: CPU steal while this suite ran (time the hypervisor gave this VM’s CPUs to other guests, share of all CPU time; high steal slows every figure above)', value: steal, unit: '%' });
  return rows;
}

/**
 * Runs one suite in a process of its own (this bundle again, given the suite's name) and
 * returns its rows, or throws with why it failed. Why a process each: suites measure an app
 * as a user starts it, and a suite run after others measured their leftovers instead (a
 * heap grown by a 100 MB harvest, threads and timers of closed cores, V8 code tuned to
 * other paths): in one process the host-call row fell from 11,200/s alone to 7,800/s after
 * the compute suite, and 8,800/s after the delegation suite, on a quiet machine.
 */
function runSuiteInOwnProcess(name: string): BenchRow[] {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bench-rows-'));
  const rowsFile = path.join(dir, 'rows.json');
  try {
    const child = spawnSync(process.execPath, [...process.execArgv, process.argv[1]!, name], { stdio: 'inherit', env: { ...process.env, [ROWS_FILE_ENV]: rowsFile } });
    if (child.error) throw child.error;
    if (!fs.existsSync(rowsFile)) throw new Error(`the suite's process ended (${child.signal ?? `exit ${child.status}`}) without its rows; its output above says why`);
    return JSON.parse(fs.readFileSync(rowsFile, 'utf8')) as BenchRow[];
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `all` (or those named in `filter`), each in its own process; an unknown name is an error that lists the names. */
export async function runBench(all: BenchSuite[], filter: string[]): Promise<void> {
  const unknown = filter.filter((name) => !all.some((s) => s.name === name));
  if (unknown.length) {
    console.error(`unknown benchmark suite ${unknown.map((n) => JSON.stringify(n)).join(', ')}; the suites are ${all.map((s) => s.name).join(', ')}`);
    process.exitCode = 2;
    return;
  }
  const suites = filter.length ? all.filter((s) => filter.includes(s.name)) : all;
  const rowsFile = process.env[ROWS_FILE_ENV];
  if (rowsFile) {
    // A suite's own process: run it, print its table, hand its rows to the parent.
    const suite = suites[0]!;
    try {
      const rows = await runSuite(suite);
      printTable(suite.name, rows);
      fs.writeFileSync(rowsFile, JSON.stringify(rows));
    } catch (error) {
      console.error(`\n## ${suite.name}: FAILED\n${(error as Error).stack ?? String(error)}`);
      process.exitCode = 1;
    }
    return;
  }
  // Which code the rows measured: the bundle scripts/bench.mjs builds, or TypeScript run from source.
  const code = process.env.OPENAI4S_BENCH_CODE ?? 'TypeScript from source (not the release bundle: slower than what users run)';
  console.log(`code measured: ${code}; Node ${process.version}; each suite in a process of its own`);
  const results: Record<string, BenchRow[]> = {};
  let failed = false;
  for (const suite of suites) {
    try {
      results[suite.name] = runSuiteInOwnProcess(suite.name);
    } catch (error) {
      failed = true;
      console.error(`\n## ${suite.name}: FAILED\n${(error as Error).message}`);
    }
  }
  // Every row with a target, from every suite run, in one table: the figures the issues set.
  const targeted = Object.entries(results).flatMap(([name, rows]) => rows.filter((r) => r.target !== undefined).map((r) => ({ ...r, metric: `${name}: ${r.metric}` })));
  if (targeted.length) printTable('targets (all suites)', targeted);
  const outDir = path.resolve('bench-results');
  fs.mkdirSync(outDir, { recursive: true });
  const record = {
    at: new Date().toISOString(),
    machine: { cpus: os.cpus().length, model: os.cpus()[0]?.model, memGiB: Math.round(os.totalmem() / 2 ** 30), node: process.version, platform: process.platform },
    code,
    results,
  };
  const stamp = record.at.replace(/[:.]/g, '-');
  fs.writeFileSync(path.join(outDir, `bench-${stamp}.json`), JSON.stringify(record, null, 2));
  fs.writeFileSync(path.join(outDir, 'latest.json'), JSON.stringify(record, null, 2));
  console.log(`\nwrote ${path.join('bench-results', 'latest.json')}`);
  if (failed) process.exitCode = 1;
}

