/**
 * `npm run bench`: runs every suite in bench/suites (or those named on the command
 * line), prints one table per suite and writes all rows as JSON under bench-results/.
 * Targets are printed beside the measurements; they are never asserted in tests.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { BenchRow, BenchSuite } from './types';
import { readCpuTimes, stealPercent } from './support/cpuSteal';

async function loadSuites(filter: string[]): Promise<BenchSuite[]> {
  const dir = path.join(import.meta.dirname, 'suites');
  const files = fs.readdirSync(dir).filter((f) => f.endsWith('.bench.ts')).sort();
  const suites: BenchSuite[] = [];
  for (const file of files) {
    const mod = (await import(pathToFileURL(path.join(dir, file)).href)) as { default: BenchSuite };
    if (!filter.length || filter.includes(mod.default.name)) suites.push(mod.default);
  }
  return suites;
}

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

async function main(): Promise<void> {
  const suites = await loadSuites(process.argv.slice(2));
  const results: Record<string, BenchRow[]> = {};
  let failed = false;
  for (const suite of suites) {
    try {
      const before = readCpuTimes();
      const rows = await suite.run();
      const steal = stealPercent(before, readCpuTimes());
      if (steal !== null) rows.push({ metric: 'machine: CPU steal while this suite ran (time the hypervisor gave this VM’s CPUs to other guests, share of all CPU time; high steal slows every figure above)', value: steal, unit: '%' });
      results[suite.name] = rows;
      printTable(suite.name, results[suite.name]!);
    } catch (error) {
      failed = true;
      console.error(`\n## ${suite.name}: FAILED\n${(error as Error).stack ?? String(error)}`);
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
    results,
  };
  const stamp = record.at.replace(/[:.]/g, '-');
  fs.writeFileSync(path.join(outDir, `bench-${stamp}.json`), JSON.stringify(record, null, 2));
  fs.writeFileSync(path.join(outDir, 'latest.json'), JSON.stringify(record, null, 2));
  console.log(`\nwrote ${path.join('bench-results', 'latest.json')}`);
  if (failed) process.exitCode = 1;
}

void main();
