import { createHash } from 'node:crypto';
import path from 'node:path';
import type { KernelCache } from './cacheLayout';
import { PYTHON_WORKER, type WorkerSpec } from './workerSpec';

/**
 * The Python worker's cached bytecode, instead of its source, when that is safe.
 *
 * Why: a script Python is given to run is compiled from source every time (only imported
 * modules get cached bytecode), and worker.py takes about 11 ms to compile on the bench
 * VM, a tenth of a kernel's cold start. The kernel cache's trusted build step compiles it
 * once (kernelCache.ts); a start runs that file (`python3 -I <cache>/worker.pyc`) when it
 * was compiled from exactly the worker.py this app ships now, else the source as before.
 */

/** Hex SHA-256 of a worker source as read from disk. */
export function sourceDigest(source: Buffer): string {
  return createHash('sha256').update(source).digest('hex');
}

/**
 * The bytecode file to run, relative to the cache folder, or null: not the default Python
 * worker, no cache, or compiled from another source than `source` (worker.py as read now).
 */
export function workerBytecode(spec: WorkerSpec, cache: KernelCache | null, source: Buffer | null): string | null {
  if (spec.language !== 'python' || spec.script || !cache?.workerPyc || !source) return null;
  return sourceDigest(source) === cache.workerPyc.sha256 ? cache.workerPyc.file : null;
}

/** Where the default Python worker's source is, under a workers folder. */
export function pythonWorkerSource(workersRoot: string): string {
  return path.join(workersRoot, PYTHON_WORKER);
}
