import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { KernelCache } from './cacheLayout';
import { SANDBOX_WORKERS, SANDBOX_WORKSPACE, bwrapArgs, kernelEnv, type SandboxDecision } from './sandbox';
import { pythonWorkerSource, sourceDigest } from './workerBytecode';
import { PYTHON_WORKER } from './workerSpec';

/**
 * The kernels' font caches (matplotlib's font list, fontconfig's caches), built by a
 * trusted host-side step and only ever read by kernels.
 *
 * Why: these caches make `import matplotlib.pyplot` fast, but a cache folder that every
 * session's sandbox can write is a channel between sessions (one session's code could
 * plant a file that another session's kernel reads). So the folder is filled by running
 * the interpreter with nothing but the imports (no user code), under the same sandbox
 * layout as a kernel so the font paths it records are the ones a kernel sees, and is then
 * bound read-only into each sandbox. Matplotlib's own config dir is a per-generation
 * writable tmp, seeded with a copy of the cached font list (matplotlib must be able to
 * rewrite it should the fonts change).
 */
export type { KernelCache } from './cacheLayout';

/** Bumped when what the build step writes (or where) changes (2: the worker's bytecode). */
const FORMAT = 2;
/** The worker's bytecode in the cache folder (workerBytecode.ts). */
const WORKER_PYC = 'worker.pyc';

interface Stamp {
  format: number;
  interpreter: string;
  interpreterMtimeMs: number;
  interpreterSize: number;
  layout: 'bwrap' | 'host';
  builtAt: string;
  python: string;
  matplotlib: { version: string; dir: string; dirMtimeMs: number } | null;
  /** The SHA-256 of the worker.py that `worker.pyc` was compiled from; null when it was not. */
  worker: { sha256: string } | null;
  error?: string;
}

// Run by the build step only: the imports, then where matplotlib lives (for staleness);
// then the worker (argv: its source, the bytecode file to write) compiled to bytecode that
// never looks back at its source, with the digest of the exact bytes it was compiled from
// (none if the file changed meanwhile).
const BUILD_CODE = `import json, os, sys
out = {"python": sys.version.split()[0], "matplotlib": None, "worker": None}
try:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot
    out["matplotlib"] = {"version": matplotlib.__version__, "dir": os.path.dirname(matplotlib.__file__)}
except Exception as exc:
    out["error"] = "%s: %s" % (type(exc).__name__, exc)
try:
    import hashlib, py_compile
    src, pyc = sys.argv[1], sys.argv[2]
    with open(src, "rb") as f:
        before = f.read()
    py_compile.compile(src, cfile=pyc, dfile=src, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH)
    with open(src, "rb") as f:
        if f.read() == before:
            out["worker"] = {"sha256": hashlib.sha256(before).hexdigest()}
except Exception as exc:
    out["workerError"] = "%s: %s" % (type(exc).__name__, exc)
print(json.dumps(out))
`;

export interface CachePlan {
  /** `<dataDir>/kernel-cache-ro`. */
  root: string;
  interpreter: string;
  workersDir: string;
  sandbox: SandboxDecision;
  parentEnv: NodeJS.ProcessEnv;
  timeoutMs?: number;
}

function layoutOf(sandbox: SandboxDecision): Stamp['layout'] {
  return sandbox.state.state === 'sandboxed' && sandbox.state.backend === 'bwrap' ? 'bwrap' : 'host';
}

export function cacheDirFor(plan: CachePlan): string {
  const real = fs.realpathSync(plan.interpreter);
  const key = createHash('sha256').update(`${real}\0${layoutOf(plan.sandbox)}`).digest('hex').slice(0, 16);
  return path.join(plan.root, `python-${key}`);
}

function readStamp(dir: string): Stamp | null {
  try {
    return JSON.parse(fs.readFileSync(path.join(dir, 'stamp.json'), 'utf8')) as Stamp;
  } catch {
    // Missing or torn stamp: the cache counts as not built, and is built again.
    return null;
  }
}

/**
 * Fresh when built for this interpreter binary and layout, matplotlib has not changed since,
 * and (given `workerSha`, the digest of the worker.py the app ships now) its bytecode is of that source.
 */
export function stampIsFresh(stamp: Stamp | null, interpreter: string, layout: Stamp['layout'], workerSha?: string | null): boolean {
  if (!stamp || stamp.format !== FORMAT || stamp.layout !== layout) return false;
  if (workerSha && stamp.worker?.sha256 !== workerSha) return false;
  // Without matplotlib there is nothing worth keeping; building again is cheap.
  if (!stamp.matplotlib) return false;
  try {
    const real = fs.realpathSync(interpreter);
    const st = fs.statSync(real);
    if (stamp.interpreter !== real || stamp.interpreterMtimeMs !== st.mtimeMs || stamp.interpreterSize !== st.size) return false;
    return fs.statSync(stamp.matplotlib.dir).mtimeMs === stamp.matplotlib.dirMtimeMs;
  } catch {
    // The interpreter or matplotlib moved: not fresh, so the cache is built again.
    return false;
  }
}

export function describeCache(dir: string): KernelCache {
  const mplDir = path.join(dir, 'matplotlib');
  const mplFiles = fs.existsSync(mplDir) ? fs.readdirSync(mplDir, { withFileTypes: true }).filter((e) => e.isFile()).map((e) => e.name) : [];
  const xdgDirs = fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isDirectory() && e.name !== 'matplotlib' && e.name !== 'home' && e.name !== 'tmp')
    .map((e) => e.name);
  const worker = readStamp(dir)?.worker;
  const withPyc = worker && fs.existsSync(path.join(dir, WORKER_PYC)) ? { workerPyc: { file: WORKER_PYC, sha256: worker.sha256 } } : {};
  return { dir, mplFiles, xdgDirs, ...withPyc };
}

/** The digest of the worker.py under `workersDir`, or null when it cannot be read. */
function workerDigest(workersDir: string): string | null {
  try {
    return sourceDigest(fs.readFileSync(pythonWorkerSource(workersDir)));
  } catch {
    return null;
  }
}

function run(file: string, args: string[], env: Record<string, string>, cwd: string, timeoutMs: number): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString('utf8')));
    child.stderr.on('data', (c: Buffer) => {
      if (stderr.length < 8192) stderr += c.toString('utf8');
    });
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', (e) => {
      clearTimeout(timer);
      resolve({ code: null, stdout, stderr: `${stderr}${e.message}` });
    });
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}

/** Runs the imports with the caches pointed into `buildDir` (the step's workspace). */
async function build(plan: CachePlan, buildDir: string): Promise<Stamp> {
  const layout = layoutOf(plan.sandbox);
  const inside = layout === 'bwrap' ? SANDBOX_WORKSPACE : buildDir;
  const env = kernelEnv(plan.parentEnv, {
    home: path.posix.join(inside, 'home'),
    tmp: path.posix.join(inside, 'tmp'),
    mplConfig: path.posix.join(inside, 'matplotlib'),
    xdgCache: inside,
  });
  fs.mkdirSync(path.join(buildDir, 'home'));
  fs.mkdirSync(path.join(buildDir, 'tmp'));
  const source = layout === 'bwrap' ? path.posix.join(SANDBOX_WORKERS, PYTHON_WORKER) : pythonWorkerSource(plan.workersDir);
  const pyc = layout === 'bwrap' ? path.posix.join(SANDBOX_WORKSPACE, WORKER_PYC) : path.join(buildDir, WORKER_PYC);
  const cmd = [plan.interpreter, '-I', '-c', BUILD_CODE, source, pyc];
  const [file, args] =
    layout === 'bwrap'
      ? [plan.sandbox.bwrap ?? 'bwrap', [...bwrapArgs({ workspace: buildDir, workersDir: plan.workersDir, interpreter: plan.interpreter, cache: null }), ...cmd]]
      : [cmd[0]!, cmd.slice(1)];
  const out = await run(file, args, env, buildDir, plan.timeoutMs ?? 120_000);
  const line = out.stdout.trim().split('\n').at(-1) ?? '';
  let parsed: { python?: string; matplotlib?: { version: string; dir: string } | null; worker?: { sha256: string } | null; error?: string } = {};
  try {
    parsed = JSON.parse(line) as typeof parsed;
  } catch {
    throw new Error(`the kernel cache build (${plan.interpreter}) ${out.code === null ? 'did not finish' : `exited with code ${out.code}`}: ${out.stderr.trim().split('\n').slice(-3).join(' ')}`);
  }
  const real = fs.realpathSync(plan.interpreter);
  const st = fs.statSync(real);
  const mpl = parsed.matplotlib ? { ...parsed.matplotlib, dirMtimeMs: fs.statSync(parsed.matplotlib.dir).mtimeMs } : null;
  const stamp: Stamp = {
    format: FORMAT,
    interpreter: real,
    interpreterMtimeMs: st.mtimeMs,
    interpreterSize: st.size,
    layout,
    builtAt: new Date().toISOString(),
    python: parsed.python ?? 'unknown',
    matplotlib: mpl,
    worker: parsed.worker ?? null,
  };
  if (parsed.error) stamp.error = parsed.error;
  fs.rmSync(path.join(buildDir, 'home'), { recursive: true, force: true });
  fs.rmSync(path.join(buildDir, 'tmp'), { recursive: true, force: true });
  fs.writeFileSync(path.join(buildDir, 'stamp.json'), `${JSON.stringify(stamp, null, 2)}\n`);
  return stamp;
}

/**
 * The cache for this interpreter and sandbox layout: reused when its stamp is fresh,
 * else built in a private folder and moved into place. Null when the build failed (the
 * kernels then run without it: slower matplotlib imports, nothing else).
 */
export async function ensureKernelCache(plan: CachePlan): Promise<KernelCache | null> {
  const target = cacheDirFor(plan);
  const layout = layoutOf(plan.sandbox);
  if (stampIsFresh(readStamp(target), plan.interpreter, layout, workerDigest(plan.workersDir))) return describeCache(target);
  fs.mkdirSync(plan.root, { recursive: true, mode: 0o700 });
  const buildDir = path.join(plan.root, `.build-${randomUUID()}`);
  fs.mkdirSync(buildDir, { mode: 0o700 });
  try {
    await build(plan, buildDir);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(buildDir, target);
    return describeCache(target);
  } catch {
    // Documented above: kernels run without the cache.
    return null;
  } finally {
    fs.rmSync(buildDir, { recursive: true, force: true });
  }
}

/** The shared writable cache of earlier builds: kernels may have planted files there. */
export function removeLegacySharedCache(dataDir: string): void {
  fs.rmSync(path.join(dataDir, 'kernel-cache'), { recursive: true, force: true });
}
