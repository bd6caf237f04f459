import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BlobStore } from '../../../src-main/core/provenance/blobStore';

/**
 * BlobStore.putFile stores a file by moving it into the store (no copy) or by copying it, and
 * only ever stores the inode its caller opened: a name swapped for another file between the
 * caller's check and the store is left where it is, and what was opened is copied instead.
 */

describe('BlobStore.putFile', () => {
  let dir: string;
  let store: BlobStore;
  beforeEach(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-blobfile-'));
    store = new BlobStore(path.join(dir, 'blobs'));
  });
  afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

  const sha = (text: string) => createHash('sha256').update(text).digest('hex');
  const opened = (file: string) => {
    const fd = fs.openSync(file, 'r');
    return { fd, stat: fs.fstatSync(fd) };
  };
  const write = (name: string, text: string) => {
    const file = path.join(dir, name);
    fs.writeFileSync(file, text);
    return file;
  };

  it('copies a file that stays its owner’s: another inode, so writing the source later leaves the stored bytes as they were', () => {
    const file = write('out.txt', 'copied\n');
    const o = opened(file);
    try {
      expect(store.putFile({ path: file, how: 'copy', opened: o })).toEqual({ sha256: sha('copied\n'), size: 7 });
    } finally {
      fs.closeSync(o.fd);
    }
    expect(fs.statSync(store.pathOf(sha('copied\n'))).ino).not.toBe(fs.statSync(file).ino);
    expect(fs.statSync(store.pathOf(sha('copied\n'))).mode & 0o777).toBe(0o600);
    // The owner rewrites its file in place (same inode): the artifact keeps its bytes.
    fs.writeFileSync(file, 'edited in place\n');
    expect(store.read(sha('copied\n')).toString()).toBe('copied\n');
  });

  it('moves a file the caller gives up, and drops it when the same bytes are already stored', () => {
    const first = write('a.txt', 'moved\n');
    const ino = fs.statSync(first).ino;
    const o1 = opened(first);
    store.putFile({ path: first, how: 'move', opened: o1 });
    fs.closeSync(o1.fd);
    expect(fs.existsSync(first)).toBe(false);
    expect(fs.statSync(store.pathOf(sha('moved\n'))).ino).toBe(ino);
    expect(fs.statSync(store.pathOf(sha('moved\n'))).mode & 0o777).toBe(0o600);

    const again = write('b.txt', 'moved\n');
    const o2 = opened(again);
    store.putFile({ path: again, how: 'move', opened: o2 });
    fs.closeSync(o2.fd);
    expect(fs.existsSync(again)).toBe(false);
    expect(fs.statSync(store.pathOf(sha('moved\n'))).ino).toBe(ino);
    // No temp names left beside the blobs.
    expect(fs.readdirSync(path.join(dir, 'blobs')).filter((n) => n.endsWith('.tmp'))).toEqual([]);
  });

  it('never stores a file swapped in under the name after it was opened: the opened bytes are copied, the other file stays', () => {
    for (const how of ['copy', 'move'] as const) {
      const file = write(`swap-${how}.txt`, `checked ${how}\n`);
      const o = opened(file);
      // The name now holds another file (the opened inode lives on through its descriptor).
      fs.rmSync(file);
      fs.writeFileSync(file, 'swapped in\n');
      try {
        expect(store.putFile({ path: file, how, opened: o }).sha256).toBe(sha(`checked ${how}\n`));
      } finally {
        fs.closeSync(o.fd);
      }
      expect(fs.readFileSync(file, 'utf8')).toBe('swapped in\n');
      expect(store.read(sha(`checked ${how}\n`)).toString()).toBe(`checked ${how}\n`);
      expect(fs.existsSync(store.pathOf(sha('swapped in\n')))).toBe(false);
    }
  });
});
