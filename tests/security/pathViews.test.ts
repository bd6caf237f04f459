import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mountsUnder } from '../../src-main/core/kernel/fuseView';
import { hidePathsSelfTest } from '../../src-main/core/kernel/hidePaths';
import { PathViews } from '../../src-main/core/kernel/pathViews';

// The shared FUSE views kernels start with are mounted without blocking the event loop;
// the one-view-per-folder rule (pathViews.ts) must hold while a mount is under way.
// CI installs bindfs and fuse3 (.ci/run).
const roots: string[] = [];
function tempRoot(): { root: string; runDir: string; folder: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'o4s-views-'));
  roots.push(root);
  const folder = path.join(root, 'workspace');
  fs.mkdirSync(folder);
  return { root, runDir: path.join(root, 'run'), folder };
}
afterEach(() => {
  for (const root of roots.splice(0)) fs.rmSync(root, { recursive: true, force: true });
});

async function tools() {
  const probe = await hidePathsSelfTest(process.env);
  if (!probe.available) throw new Error(`bindfs is required for this test: ${probe.reason}`);
  return probe.tools;
}

describe('PathViews', () => {
  it('two kernels of one folder starting together share one view, unmounted after the last release', async () => {
    const { runDir, folder } = tempRoot();
    const views = new PathViews(runDir);
    const [a, b] = await Promise.all([views.acquire(folder, await tools(), false), views.acquire(folder, await tools(), false)]);
    expect(a.path).toBe(b.path);
    expect(a.hidden).toBe(true);
    expect(mountsUnder(runDir)).toEqual([a.path]);
    fs.writeFileSync(path.join(folder, 'seen.txt'), 'through the view');
    expect(fs.readFileSync(path.join(a.path, 'seen.txt'), 'utf8')).toBe('through the view');
    await a.release();
    expect(mountsUnder(runDir)).toEqual([a.path]); // b still holds it
    await b.release();
    await b.release(); // a second release is a no-op
    expect(mountsUnder(runDir)).toEqual([]);
    expect(fs.readdirSync(runDir)).toEqual([]);
  });

  it('a mount that fails rejects every kernel waiting on it and leaves no entry, so the folder can be bound plainly', async () => {
    const { root, runDir, folder } = tempRoot();
    const failing = path.join(root, 'bindfs');
    fs.writeFileSync(failing, '#!/bin/sh\necho "fuse: device not found" >&2\nexit 3\n', { mode: 0o755 });
    const views = new PathViews(runDir);
    const broken = { bindfs: failing, fusermount: (await tools()).fusermount };
    const results = await Promise.allSettled([views.acquire(folder, broken, false), views.acquire(folder, broken, false)]);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      expect(String((r as PromiseRejectedResult).reason)).toMatch(/bindfs could not mount a view of the workspace \(exit code 3: fuse: device not found\)/);
    }
    expect(views.inUse(folder)).toBe(false);
    const plain = await views.acquire(folder, null, false);
    expect(plain).toMatchObject({ path: folder, hidden: false });
    expect(fs.readdirSync(runDir)).toEqual([]); // the failed mount point was removed
    await plain.release();
  });

  it('a view whose mount completes after closeAll is unmounted, and its kernel is refused', async () => {
    const { runDir, folder } = tempRoot();
    const views = new PathViews(runDir);
    const pending = views.acquire(folder, await tools(), true);
    views.closeAll();
    await expect(pending).rejects.toThrow(/closed|could not mount/);
    await views.settled();
    expect(mountsUnder(runDir)).toEqual([]);
  });
});

describe('the hide-paths probe', () => {
  it('is tried again by the next kernel when it could not even make its temporary folder', async () => {
    const env = { ...process.env, OPENAI4S_BINDFS: '/usr/bin/bindfs' }; // a cache key of its own
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = '/nonexistent/o4s-tmp';
    try {
      await expect(hidePathsSelfTest(env)).rejects.toThrow(/ENOENT/);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
    await expect(hidePathsSelfTest(env)).resolves.toMatchObject({ available: true });
  });
});
