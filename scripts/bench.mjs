#!/usr/bin/env node
/**
 * `npm run bench [suite ...]`: bundles the benchmark suites together with the app's code and
 * runs the bundle under plain Node.
 *
 * Why not run the TypeScript through tsx, as the tests do: a benchmark measures the code
 * users run, and users run the release build's bundle (out/main, bundled without helpers
 * that keep function names). tsx compiles every module with esbuild's `keepNames`, which
 * wraps each named function and closure in a `__name(fn, "…")` call (an
 * `Object.defineProperty` each time a closure is created) and gives those functions shapes
 * that miss V8's inline caches. On the host-call path that cost the main thread about a
 * tenth of its time per call (measured: 106–109 against 91–97 us a call), time the release
 * build never spends.
 *
 * The bundle (out/bench) is built like out/main: CommonJS for Node 20, every package left to
 * `require`, no name-keeping helpers. The worker threads the app starts are bundled beside
 * it (ledgerWriter.js, llmThread.js), where the app looks for them. Files of bench/
 * and tests/ that find repository files relative to themselves keep their own paths.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const root = path.resolve(import.meta.dirname, '..');
const outDir = path.join(root, 'out', 'bench');
const suitesDir = path.join(root, 'bench', 'suites');
const suites = fs
  .readdirSync(suitesDir)
  .filter((f) => f.endsWith('.bench.ts'))
  .sort()
  .map((f) => path.join(suitesDir, f));

// The entry: every suite imported statically, then the runner.
const entry = [
  `import { runBench } from ${JSON.stringify(path.join(root, 'bench', 'run.ts'))};`,
  ...suites.map((file, i) => `import suite${i} from ${JSON.stringify(file)};`),
  `void runBench([${suites.map((_, i) => `suite${i}`).join(', ')}], process.argv.slice(2));`,
].join('\n');

/** bench/ and tests/ locate fixtures and helpers from their own folder: keep those paths. */
const ownPaths = {
  name: 'own-paths',
  setup(b) {
    const mine = new RegExp(`^${root.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/(bench|tests)/.*\\.ts$`);
    b.onLoad({ filter: /\.ts$/ }, (args) => {
      if (!mine.test(args.path)) return undefined;
      const dir = path.dirname(args.path);
      const contents = fs
        .readFileSync(args.path, 'utf8')
        .replaceAll('import.meta.dirname', JSON.stringify(dir))
        .replaceAll('import.meta.filename', JSON.stringify(args.path))
        .replaceAll('import.meta.url', JSON.stringify(pathToFileURL(args.path).href))
        .replace(/\b__dirname\b/g, JSON.stringify(dir))
        .replace(/\b__filename\b/g, JSON.stringify(args.path));
      return { contents, loader: 'ts' };
    });
  },
};

const virtualEntry = {
  name: 'bench-entry',
  setup(b) {
    b.onResolve({ filter: /^bench-entry$/ }, () => ({ path: 'bench-entry', namespace: 'bench-entry' }));
    b.onLoad({ filter: /.*/, namespace: 'bench-entry' }, () => ({ contents: entry, resolveDir: root, loader: 'ts' }));
  },
};

let build;
try {
  ({ build } = await import('esbuild'));
} catch {
  console.error('esbuild is not installed, so the benchmarks cannot be bundled; run npm ci (the benchmarks need the dev dependencies)');
  process.exit(1);
}

/**
 * The worker threads the app starts, as `threadSource(here, '<name>.js', '<entry>.ts')` names
 * them (src-main/core/shared/threadSource.ts): each bundled beside the runner, where the app
 * looks for it. Read from the call sites, so a new thread is bundled without a second list.
 */
function threadEntries() {
  const entries = {};
  const call = /threadSource\([^,]+,\s*'([A-Za-z0-9_-]+)\.js',\s*'([A-Za-z0-9_./-]+\.ts)'\)/g;
  for (const file of fs.readdirSync(path.join(root, 'src-main'), { recursive: true })) {
    if (!file.endsWith('.ts') || file.endsWith('.test.ts')) continue;
    const full = path.join(root, 'src-main', file);
    for (const [, name, entry] of fs.readFileSync(full, 'utf8').matchAll(call)) entries[name] = path.join(path.dirname(full), entry);
  }
  return entries;
}

fs.rmSync(outDir, { recursive: true, force: true });
try {
  await build({
    entryPoints: { bench: 'bench-entry', ...threadEntries() },
    outdir: outDir,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
    keepNames: false,
    sourcemap: false,
    logLevel: 'error',
    plugins: [virtualEntry, ownPaths],
  });
} catch (error) {
  const first = error.errors?.[0];
  const where = first?.location ? `${first.location.file}:${first.location.line}: ${first.text}` : String(error.message).split('\n')[0];
  console.error(`the benchmarks could not be bundled: ${where}; fix it and run again`);
  process.exit(1);
}

const env = { ...process.env, OPENAI4S_BENCH_CODE: 'the app bundled as the release build bundles it (out/bench, no name-keeping helpers)' };
const run = spawnSync(process.execPath, [path.join(outDir, 'bench.js'), ...process.argv.slice(2)], { stdio: 'inherit', cwd: root, env });
process.exit(run.status ?? 1);
