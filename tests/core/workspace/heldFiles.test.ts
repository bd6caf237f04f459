import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { heldFileCount, releaseHeldFiles } from '../../../src-main/core/workspace/heldFiles';
import { releaseWorkspaceRoots } from '../../../src-main/core/workspace/heldRoots';
import { readSmallWorkspaceFile, WorkspaceEscapeError, WorkspaceKindError, WorkspaceNotFoundError } from '../../../src-main/core/workspace/safeFs';

/**
 * A file read again and again (a cell's loop of `host.read_file`) is read through a
 * descriptor kept open between reads (heldFiles.ts), used only while its name still leads
 * to the same file: every read must say what a fresh open would.
 */
const linux = process.platform === 'linux';
const dirs: string[] = [];
let ws = '';
const MAX = 4 * 1024 * 1024;
const read = (name: string) => readSmallWorkspaceFile(ws, name, MAX)?.bytes.toString('utf8');
const openFds = () => fs.readdirSync('/proc/self/fd').length;

beforeEach(() => {
  releaseHeldFiles();
  const base = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-held-'));
  dirs.push(base);
  ws = path.join(base, 'ws');
  fs.mkdirSync(ws);
});
afterEach(() => {
  releaseHeldFiles();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe.runIf(linux)('reads through a held descriptor say what a fresh open would', () => {
  it('a file rewritten, grown or truncated in place is read as it is now', () => {
    const file = path.join(ws, 'notes.txt');
    fs.writeFileSync(file, 'first\n');
    expect(read('notes.txt')).toBe('first\n');
    expect(heldFileCount()).toBe(1);
    fs.writeFileSync(file, 'second, longer\n'); // same inode: truncated and written
    expect(read('notes.txt')).toBe('second, longer\n');
    fs.appendFileSync(file, 'more\n');
    expect(read('notes.txt')).toBe('second, longer\nmore\n');
    fs.truncateSync(file, 3);
    expect(read('./notes.txt')).toBe('sec');
    expect(heldFileCount()).toBe(1);
  });

  it('a name given to another file (renamed over it) is read as the new file', () => {
    fs.writeFileSync(path.join(ws, 'a.txt'), 'old');
    expect(read('a.txt')).toBe('old');
    fs.writeFileSync(path.join(ws, 'b.txt'), 'new');
    fs.renameSync(path.join(ws, 'b.txt'), path.join(ws, 'a.txt'));
    expect(read('a.txt')).toBe('new');
  });

  it('a name replaced by a symlink (to a file outside) is refused, and the held descriptor released', () => {
    const outside = path.join(path.dirname(ws), 'secret.txt');
    fs.writeFileSync(outside, 'secret');
    fs.writeFileSync(path.join(ws, 'a.txt'), 'mine');
    expect(read('a.txt')).toBe('mine');
    fs.rmSync(path.join(ws, 'a.txt'));
    fs.symlinkSync(outside, path.join(ws, 'a.txt'));
    expect(() => read('a.txt')).toThrow(WorkspaceEscapeError);
    expect(heldFileCount()).toBe(0);
  });

  it('a folder on the path replaced by a symlink to a folder outside is refused', () => {
    const elsewhere = path.join(path.dirname(ws), 'elsewhere');
    fs.mkdirSync(elsewhere);
    fs.writeFileSync(path.join(elsewhere, 'x.txt'), 'outside');
    fs.mkdirSync(path.join(ws, 'data'));
    fs.writeFileSync(path.join(ws, 'data', 'x.txt'), 'inside');
    expect(read('data/x.txt')).toBe('inside');
    fs.renameSync(path.join(ws, 'data'), path.join(ws, 'moved'));
    fs.symlinkSync(elsewhere, path.join(ws, 'data'));
    expect(() => read('data/x.txt')).toThrow(WorkspaceEscapeError);
  });

  it('a deleted file is missing, a name that became a folder is a folder, and neither stays held', () => {
    fs.writeFileSync(path.join(ws, 'gone.txt'), 'x');
    expect(read('gone.txt')).toBe('x');
    fs.rmSync(path.join(ws, 'gone.txt'));
    expect(() => read('gone.txt')).toThrow(WorkspaceNotFoundError);
    fs.writeFileSync(path.join(ws, 'dir'), 'x');
    expect(read('dir')).toBe('x');
    fs.rmSync(path.join(ws, 'dir'));
    fs.mkdirSync(path.join(ws, 'dir'));
    expect(() => read('dir')).toThrow(WorkspaceKindError);
    expect(heldFileCount()).toBe(0);
  });

  it('a file over the limit is not read (null) nor kept, and the next read under a higher limit reads it whole', () => {
    fs.writeFileSync(path.join(ws, 'big.txt'), 'x'.repeat(100));
    expect(readSmallWorkspaceFile(ws, 'big.txt', 10)).toBeNull();
    expect(heldFileCount()).toBe(0);
    expect(readSmallWorkspaceFile(ws, 'big.txt', 100)?.size).toBe(100);
    fs.appendFileSync(path.join(ws, 'big.txt'), 'more');
    expect(heldFileCount()).toBe(1);
    expect(readSmallWorkspaceFile(ws, 'big.txt', 100)).toBeNull(); // grown past it since
    expect(heldFileCount()).toBe(0);
  });

  it('at most 16 descriptors are held, and releasing a workspace closes its own', () => {
    const before = openFds();
    for (let i = 0; i < 20; i++) {
      fs.writeFileSync(path.join(ws, `f${i}.txt`), String(i));
      expect(read(`f${i}.txt`)).toBe(String(i));
    }
    expect(heldFileCount()).toBe(16);
    expect(read('f19.txt')).toBe('19'); // the newest are kept
    const other = path.join(path.dirname(ws), 'other');
    fs.mkdirSync(other);
    fs.writeFileSync(path.join(other, 'o.txt'), 'o');
    expect(readSmallWorkspaceFile(other, 'o.txt', MAX)?.bytes.toString()).toBe('o');
    releaseHeldFiles(ws);
    expect(heldFileCount()).toBe(1);
    releaseHeldFiles();
    expect(heldFileCount()).toBe(0);
    // The held root of each workspace may stay open (heldRoots.ts); no file descriptor does.
    expect(openFds()).toBeLessThanOrEqual(before + 2);
  });

  it('a descriptor is closed 2 s after its last use, not after its first', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
    try {
      fs.writeFileSync(path.join(ws, 'a.txt'), 'a');
      expect(read('a.txt')).toBe('a');
      vi.advanceTimersByTime(1_500);
      expect(read('a.txt')).toBe('a'); // used again: held until 3.5 s
      vi.advanceTimersByTime(1_000);
      expect(heldFileCount()).toBe(1);
      vi.advanceTimersByTime(1_100);
      expect(heldFileCount()).toBe(0);
    } finally {
      releaseWorkspaceRoots(); // its timer was a fake one
      vi.useRealTimers();
    }
  });
});
