import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { Spawner, type SpawnedChild } from '../../../src-main/core/kernel/spawner/spawner';
import { waitFor } from './helpers';

const PYTHON = '/usr/bin/python3';
const linux = process.platform === 'linux' && fs.existsSync(PYTHON);

function collect(stream: Readable | Writable | null | undefined): () => string {
  let text = '';
  (stream as Readable).on('data', (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

function closed(child: SpawnedChild): Promise<[number | null, NodeJS.Signals | null]> {
  return new Promise((resolve) => child.once('close', (code, signal) => resolve([code, signal])));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.startsWith('Z');
  } catch {
    return false;
  }
}

describe.skipIf(!linux)('the spawner (starts sandboxes without forking the app)', () => {
  const spawners: Spawner[] = [];
  const started = async (): Promise<Spawner> => {
    const spawner = new Spawner(PYTHON);
    spawners.push(spawner);
    expect(await spawner.started).toBe(true);
    return spawner;
  };
  afterEach(() => {
    for (const s of spawners.splice(0)) s.close();
  });

  it('maps pipes to the fd numbers asked for: what the child writes arrives, what the app writes is read, then exit and close', async () => {
    const spawner = await started();
    const child = (await spawner.spawn('/bin/sh', ['-c', 'echo out; echo err >&2; cat <&4 >&3; exit 3'], { env: { PATH: '/usr/bin:/bin' }, fds: ['ignore', 'write', 'write', 'write', 'read'], detached: true }))!;
    const [out, err, fd3] = [collect(child.stdio[1]), collect(child.stdio[2]), collect(child.stdio[3])];
    (child.stdio[4] as Writable).end('from the app\n');
    const exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    expect(await closed(child)).toEqual([3, null]);
    expect(await exit).toBe(3);
    expect([out(), err(), fd3()]).toEqual(['out\n', 'err\n', 'from the app\n']);
  });

  it('reports the exit of a child that ended before the app read its start (both lines in one read)', async () => {
    const spawner = await started();
    const pending = spawner.spawn('/bin/sh', ['-c', 'echo quick'], { env: {}, fds: ['ignore', 'write', 'write'] });
    // The app is busy meanwhile: the spawner's reply and the child's exit wait in one pipe.
    const until = Date.now() + 300;
    while (Date.now() < until) {
      // busy
    }
    const child = (await pending)!;
    const out = collect(child.stdio[1]);
    const exit = new Promise((resolve) => child.once('exit', (code) => resolve(code)));
    expect(await closed(child)).toEqual([0, null]);
    expect([await exit, out()]).toEqual([0, 'quick\n']);
  });

  it('gives the child only the descriptors it maps, every signal at its default, and its own session when detached', async () => {
    const spawner = await started();
    const script = 'ls /proc/self/fd; grep -E "^Sig(Ign|Blk)" /proc/self/status; ps -o sid= -p $$; echo $$';
    const child = (await spawner.spawn('/bin/sh', ['-c', script], { env: { PATH: '/usr/bin:/bin' }, fds: ['ignore', 'write', 'write'], detached: true }))!;
    const out = collect(child.stdio[1]);
    expect(await closed(child)).toEqual([0, null]);
    const lines = out().trim().split('\n');
    const pid = lines.at(-1)!.trim();
    // 0-2 and the descriptor ls itself opens on /proc/self/fd; nothing the app or the spawner inherited.
    expect(lines.slice(0, lines.findIndex((l) => l.startsWith('Sig')))).toEqual(['0', '1', '2', '3']);
    // Signals 1-31 (the spawner itself ignores SIGINT and SIGPIPE); glibc reserves 32 and 33 for itself.
    const mask = (name: string) => BigInt(`0x${lines.find((l) => l.startsWith(name))!.split(/\s+/)[1]}`) & 0x7fffffffn;
    expect([mask('SigIgn'), mask('SigBlk')]).toEqual([0n, 0n]);
    expect(lines.at(-2)!.trim()).toBe(pid);
  });

  it('passes what an app descriptor names (a folder, as O_PATH) at the number asked for', async () => {
    const spawner = await started();
    const dir = fs.mkdtempSync('/tmp/oai4s-spawner-');
    fs.writeFileSync(path.join(dir, 'marker.txt'), 'x');
    const fd = fs.openSync(dir, fs.constants.O_RDONLY | fs.constants.O_DIRECTORY);
    try {
      const child = (await spawner.spawn('/bin/ls', ['/proc/self/fd/3/'], { env: {}, fds: ['ignore', 'write', 'write', { fd }] }))!;
      const out = collect(child.stdio[1]);
      expect(await closed(child)).toEqual([0, null]);
      expect(out().trim()).toBe('marker.txt');
    } finally {
      fs.closeSync(fd);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reports a file that cannot be executed as an error event (as Node does), and a kill by its signal', async () => {
    const spawner = await started();
    const missing = (await spawner.spawn('/nonexistent/tool', [], { env: {}, fds: ['ignore', 'write', 'read'] }))!;
    const error = await new Promise<NodeJS.ErrnoException>((resolve) => missing.once('error', resolve));
    expect(error.code).toBe('ENOENT');
    expect(error.message).toContain('/nonexistent/tool');
    // Its pipes are there, empty, as a caller that wires them up before the error expects.
    (missing.stdio[2] as Writable).end('nobody reads this');
    const output = missing.stdio[1] as Readable;
    await new Promise((resolve) => output.once('end', resolve).resume());
    const sleeper = (await spawner.spawn('/bin/sleep', ['30'], { env: {}, fds: ['ignore', 'ignore', 'ignore'], detached: true }))!;
    process.kill(-sleeper.pid!, 'SIGKILL');
    expect(await closed(sleeper)).toEqual([null, 'SIGKILL']);
  });

  it('kills what it started when the app goes, and a relative file name or a closed spawner is left to Node (null)', async () => {
    const spawner = await started();
    const sleeper = (await spawner.spawn('/bin/sleep', ['30'], { env: {}, fds: ['ignore', 'ignore', 'ignore'], detached: true }))!;
    const ended = closed(sleeper);
    expect(await spawner.spawn('sleep', ['1'], { env: {}, fds: ['ignore'] })).toBeNull();
    spawner.close(); // the same end of its stdin as the app's death
    expect(await waitFor(() => !alive(sleeper.pid!))).toBe(true);
    expect(await ended).toEqual([null, 'SIGKILL']);
    expect(await waitFor(() => !spawner.ready)).toBe(true);
    expect(await spawner.spawn('/bin/true', [], { env: {}, fds: ['ignore'] })).toBeNull();
  });

  it('hands a request back (null) and takes no more when the app’s descriptors are out of its reach, as in an app that is not dumpable', async () => {
    const spawner = await started();
    expect(await spawner.spawn('/bin/true', [], { env: {}, fds: ['ignore', 'ignore', 'ignore', { fd: 1_000_000 }] })).toBeNull();
    expect(spawner.ready).toBe(false);
    expect(spawner.refused).toMatch(/cannot open the app's descriptors \(ENOENT/);
    expect(await spawner.spawn('/bin/true', [], { env: {}, fds: ['ignore'] })).toBeNull();
  });

  it('is not started without an interpreter, and one that is not Python leaves it unready (Node spawns)', async () => {
    const none = new Spawner(null);
    expect(await none.started).toBe(false);
    const wrong = new Spawner('/bin/false');
    spawners.push(wrong);
    expect(await wrong.started).toBe(false);
    expect(await wrong.spawn('/bin/true', [], { env: {}, fds: ['ignore'] })).toBeNull();
  });

  it('does not keep an app alive that has nothing else to do', () => {
    const code = `const { Spawner } = require(${JSON.stringify(path.resolve('src-main/core/kernel/spawner/spawner.ts'))}); const s = new Spawner('${PYTHON}'); s.started.then((ok) => console.log('started', ok));`;
    const run = spawnSync(process.execPath, ['--import', 'tsx', '-e', code], { encoding: 'utf8', timeout: 20_000 });
    expect(run.status).toBe(0);
    expect(run.stdout.trim()).toBe('started true');
  });
});
