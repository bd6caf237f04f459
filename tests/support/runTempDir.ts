/**
 * Vitest global setup: one temporary folder per test run, removed when the run ends.
 *
 * Tests make their data dirs, workspaces and fixtures with `mkdtemp(os.tmpdir())`, and
 * many leave them behind (a failed assertion skips the cleanup, and a kernel's data dir
 * holds FUSE mount points that a plain `rm` cannot take): earlier runs had left about
 * 250 folders in one machine's /tmp. Here TMPDIR points every test process (they are
 * forked after this runs, and `os.tmpdir()` reads TMPDIR) at a folder of this run; at the
 * end, FUSE views a test left mounted under it are detached, and the folder goes.
 *
 * OPENAI4S_KEEP_TEST_TMP=1 keeps the folder (its path is printed) to look at what a
 * failing test left.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { mountsUnder } from '../../src-main/core/kernel/fuseView';

function detach(point: string): void {
  for (const [cmd, args] of [
    ['fusermount3', ['-u', '-z', point]],
    ['fusermount', ['-u', '-z', point]],
    ['umount', ['-l', point]],
  ] as const) {
    if (spawnSync(cmd, args, { stdio: 'ignore' }).status === 0) return;
  }
}

export default function setup(): () => void {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'o4t-'));
  process.env.TMPDIR = root;
  return () => {
    if (process.env.OPENAI4S_KEEP_TEST_TMP === '1') {
      console.log(`[tests] temporary files kept in ${root}`);
      return;
    }
    // Deepest first: a view mounted inside another folder that is itself a mount point.
    for (const point of mountsUnder(root).sort((a, b) => b.length - a.length)) detach(point);
    try {
      fs.rmSync(root, { recursive: true, force: true, maxRetries: 3 });
    } catch (error) {
      console.warn(`[tests] could not remove ${root}: ${error instanceof Error ? error.message : String(error)}`);
    }
  };
}
