import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(import.meta.dirname, '../..');
const OUT = path.join(ROOT, 'out', 'bench');

/**
 * `npm run bench` measures the app's code as the release build bundles it (scripts/bench.mjs).
 * This builds that bundle (every suite with the app's code) and asks it for a suite that does
 * not exist, which runs nothing: so a suite that stops bundling fails here, not on the
 * machine where someone next runs the benchmarks.
 */
describe('the benchmark bundle', () => {
  it('bundles every suite without name-keeping helpers, with the worker threads beside it, and refuses an unknown suite by listing the suites', () => {
    const run = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'bench.mjs'), 'no-such-suite'], { cwd: ROOT, encoding: 'utf8', timeout: 120_000 });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/unknown benchmark suite "no-such-suite"; the suites are .*hostCalls.*/);
    expect(run.stdout).not.toContain('## ');
    const bundle = fs.readFileSync(path.join(OUT, 'bench.js'), 'utf8');
    // tsx's keepNames output wraps functions in __name(...): the release bundle has none.
    expect(bundle).not.toMatch(/\b__name\(/);
    // Every worker thread the app starts by its bundled name is beside the runner (else it would run through tsx).
    const threads = fs
      .readdirSync(path.join(ROOT, 'src-main'), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts'))
      .flatMap((f) => [...fs.readFileSync(path.join(ROOT, 'src-main', f), 'utf8').matchAll(/threadSource\([^)]*'([\w-]+\.js)'/g)].map((m) => m[1]!));
    expect(threads).toEqual(expect.arrayContaining(['ledgerWriter.js', 'llmThread.js']));
    for (const thread of threads) expect(fs.existsSync(path.join(OUT, thread)), thread).toBe(true);
  }, 150_000);

  it('runs a named suite in a process of its own and still prints and records its rows in the targets table (the bundle the test above built)', () => {
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-bench-run-'));
    try {
      const run = spawnSync(process.execPath, [path.join(OUT, 'bench.js'), 'prompt'], { cwd, encoding: 'utf8', timeout: 120_000 });
      expect(run.stderr).toBe('');
      expect(run.status).toBe(0);
      expect(run.stdout).toContain('each suite in a process of its own');
      // The suite's own table (printed by its process), then the parent's targets table built from the rows it handed over.
      expect(run.stdout).toMatch(/## prompt\n[\s\S]*## targets \(all suites\)\n[\s\S]*prompt: first model request/);
      const record = JSON.parse(fs.readFileSync(path.join(cwd, 'bench-results', 'latest.json'), 'utf8')) as { results: Record<string, { metric: string; value: number }[]> };
      const first = record.results.prompt?.find((r) => r.metric.startsWith('first model request'));
      expect(first?.value).toBeGreaterThan(0);
    } finally {
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  }, 150_000);
});
