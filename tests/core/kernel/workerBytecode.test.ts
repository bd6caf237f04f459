import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { KernelCache } from '../../../src-main/core/kernel/cacheLayout';
import { stampIsFresh } from '../../../src-main/core/kernel/kernelCache';
import { sourceDigest, workerBytecode } from '../../../src-main/core/kernel/workerBytecode';
import type { WorkerSpec } from '../../../src-main/core/kernel/workerSpec';
import { makeSupervisor } from './helpers';

/**
 * The kernel cache's build step compiles the Python worker to bytecode; a kernel runs it
 * instead of compiling worker.py at every start, but only while worker.py is the source it
 * was compiled from (workerBytecode.ts).
 */
const WORKER = path.resolve(import.meta.dirname, '../../../kernel-workers/python/worker.py');
const { sup } = makeSupervisor();
afterAll(() => sup.close());

describe('the Python worker run from the kernel cache’s bytecode', () => {
  it('is compiled by the cache build from the worker.py the app ships, and a kernel started after it runs it', async () => {
    const cacheDir = (await sup.prepareKernelCache())!;
    const stamp = JSON.parse(fs.readFileSync(path.join(cacheDir, 'stamp.json'), 'utf8')) as { worker: { sha256: string } | null };
    expect(stamp.worker?.sha256).toBe(createHash('sha256').update(fs.readFileSync(WORKER)).digest('hex'));
    expect(fs.existsSync(path.join(cacheDir, 'worker.pyc'))).toBe(true);
    const r = await sup.execute('pyc', 'python', 'print(open("/proc/self/cmdline", "rb").read().split(b"\\0")[-2].decode())');
    expect(r.status).toBe('ok');
    expect(r.stdout.trim()).toBe('/cache/worker.pyc');
  }, 120_000);

  it('keeps the worker’s own frames out of a cell’s traceback, as from source', async () => {
    const r = await sup.execute('pyc', 'python', 'def f():\n    return 1/0\nf()');
    expect(r.status).toBe('error');
    expect(r.error!.ename).toBe('ZeroDivisionError');
    expect(r.error!.line).toBe(2);
    expect(r.error!.traceback).not.toMatch(/worker\.py|worker\.pyc/);
  }, 60_000);

  it('is used only for the default Python worker compiled from exactly the source read now', () => {
    const source = fs.readFileSync(WORKER);
    const cache: KernelCache = { dir: '/c', mplFiles: [], xdgDirs: [], workerPyc: { file: 'worker.pyc', sha256: sourceDigest(source) } };
    const spec = { language: 'python' } as WorkerSpec;
    expect(workerBytecode(spec, cache, source)).toBe('worker.pyc');
    expect(workerBytecode(spec, cache, Buffer.concat([source, Buffer.from('\n# edited\n')]))).toBeNull();
    expect(workerBytecode(spec, cache, null)).toBeNull();
    expect(workerBytecode(spec, { ...cache, workerPyc: undefined }, source)).toBeNull();
    expect(workerBytecode({ ...spec, script: 'python/other.py' }, cache, source)).toBeNull();
    expect(workerBytecode({ language: 'r' } as WorkerSpec, cache, source)).toBeNull();
  });

  it('makes the cache stale once worker.py changes (an app update), so the next start compiles it again', async () => {
    const cacheDir = (await sup.prepareKernelCache())!;
    const stamp = JSON.parse(fs.readFileSync(path.join(cacheDir, 'stamp.json'), 'utf8')) as Parameters<typeof stampIsFresh>[0];
    const interpreter = '/usr/bin/python3';
    expect(stampIsFresh(stamp, interpreter, 'bwrap', stamp!.worker!.sha256)).toBe(true);
    expect(stampIsFresh(stamp, interpreter, 'bwrap', sourceDigest(Buffer.from('another worker')))).toBe(false);
    expect(stampIsFresh({ ...stamp!, worker: null }, interpreter, 'bwrap', stamp!.worker!.sha256)).toBe(false);
  }, 120_000);
});
