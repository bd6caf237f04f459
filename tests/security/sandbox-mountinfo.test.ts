import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mountViewAsync, mountsUnder } from '../../src-main/core/kernel/fuseView';
import { decideHidePaths, hidePathsSelfTest } from '../../src-main/core/kernel/hidePaths';
import { describeSandbox } from '../../src-main/core/kernel/sandbox';
import { hostProcessesMatching, makeSupervisor, waitFor } from '../core/kernel/helpers';

// Issue 13, item 3, the mountinfo part: by default (auto) and with OPENAI4S_SANDBOX_HIDE_PATHS=on the
// workspace and the kernel cache reach the sandbox through a bindfs view, so field 4
// of /proc/self/mountinfo (a mount's root inside its file system) is `/`, `/.git`...,
// never the host path. CI installs bindfs and fuse3 (.ci/run).
const HIDE = { OPENAI4S_SANDBOX_HIDE_PATHS: 'on' };
const { sup, dataDir } = makeSupervisor({ processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8', ...HIDE } });
const runDir = path.join(dataDir, 'run', 'mnt');
afterAll(() => sup.close());

const READ_MOUNTS = `
import json
print(json.dumps({"self": open("/proc/self/mountinfo").read(), "pid1": open("/proc/1/mountinfo").read()}))
`;

describe('mountinfo with OPENAI4S_SANDBOX_HIDE_PATHS=on', () => {
  it('names neither the data root nor the workspace host path, in /proc/self and /proc/1', async () => {
    const r = await sup.execute('mi', 'python', READ_MOUNTS);
    expect(r.status, r.error?.traceback).toBe('ok');
    const seen = JSON.parse(r.stdout) as Record<string, string>;
    const workspace = sup.workspaceFor('mi');
    for (const text of [seen.self!, seen.pid1!]) {
      expect(text).not.toContain(dataDir);
      expect(text).not.toContain(workspace);
      expect(text).not.toContain('workspaces/mi');
      // The workspace is the root of its own (FUSE) file system, and .git is `/.git` in it.
      expect(text).toMatch(/ \/ \/workspace rw[^\n]* - fuse /);
      expect(text).toMatch(/ \/\.git \/workspace\/\.git ro/);
    }
    // The kernel cache, when built, is a read-only view too.
    if (seen.self!.includes(' /cache ')) expect(seen.self).toMatch(/ \/ \/cache ro[^\n]* - fuse /);
    expect(mountsUnder(runDir).length).toBeGreaterThan(0);
  });

  it('a file the host writes while a cell runs is read by the cell at once, and the other way round', async () => {
    const workspace = sup.workspaceFor('mi');
    fs.writeFileSync(path.join(workspace, 'v.txt'), 'first');
    const cell = sup.execute(
      'mi',
      'python',
      [
        'import os, time',
        'print(open("v.txt").read())',
        'open("ready", "w").write("1")',
        'while not os.path.exists("host-wrote"): time.sleep(0.01)',
        'print(open("v.txt").read())',
        'open("from-cell.txt", "w").write("written by the cell")',
      ].join('\n'),
    );
    expect(await waitFor(() => fs.existsSync(path.join(workspace, 'ready')), 20_000)).toBe(true);
    fs.writeFileSync(path.join(workspace, 'v.txt'), 'second, longer');
    fs.writeFileSync(path.join(workspace, 'host-wrote'), '');
    const r = await cell;
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout.trim().split('\n')).toEqual(['first', 'second, longer']);
    expect(fs.readFileSync(path.join(workspace, 'from-cell.txt'), 'utf8')).toBe('written by the cell');
  });

  it('protected names stay read-only through the view', async () => {
    const r = await sup.execute(
      'mi',
      'python',
      [
        'import errno',
        'for op in (lambda: open(".env", "w"), lambda: open(".git/hooks-x", "w"), lambda: __import__("os").rename(".git", "g2")):',
        '    try:',
        '        op(); print("allowed")',
        '    except OSError as e:',
        '        print(errno.errorcode[e.errno])',
      ].join('\n'),
    );
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout.trim().split('\n')).toEqual(['EROFS', 'EROFS', 'EBUSY']);
  });

  it('the Python and R kernels of a session share one view; it is unmounted when the last one stops', async () => {
    const before = mountsUnder(runDir);
    const r = await sup.execute('mi', 'r', 'cat(readLines("/proc/self/mountinfo"), sep = "\\n")');
    expect(r.status, r.error?.traceback).toBe('ok');
    expect(r.stdout).not.toContain(dataDir);
    // R has no kernel cache: the workspace's view is Python's, nothing new was mounted.
    expect(mountsUnder(runDir)).toEqual(before);
    await sup.restart('mi', 'python');
    expect(mountsUnder(runDir).length).toBeGreaterThan(0); // R still holds the workspace view
    await sup.closeSession('mi');
    expect(mountsUnder(runDir)).toEqual([]);
    expect(fs.readdirSync(runDir)).toEqual([]);
    expect(await waitFor(() => hostProcessesMatching(runDir).length === 0, 5_000)).toBe(true);
  });
});

describe('views left by a killed app', () => {
  it('are unmounted when the next supervisor starts over the same data root', async () => {
    const probe = await hidePathsSelfTest(process.env);
    if (!probe.available) throw new Error(`bindfs is required for this test: ${probe.reason}`);
    const { sup: first, dataDir: root } = makeSupervisor();
    await first.close();
    const src = fs.mkdtempSync(path.join(root, 'src-'));
    // A dead app's mount point: named by a pid that no longer exists.
    const stale = path.join(root, 'run', 'mnt', '2147483646-stale');
    await mountViewAsync(probe.tools, src, stale, false);
    expect(mountsUnder(path.join(root, 'run', 'mnt'))).toEqual([stale]);
    const { sup: next } = makeSupervisor({ dataDir: root });
    try {
      expect(mountsUnder(path.join(root, 'run', 'mnt'))).toEqual([]);
      expect(fs.existsSync(stale)).toBe(false);
    } finally {
      await next.close();
    }
  });
});

describe('the default, with OPENAI4S_SANDBOX_HIDE_PATHS unset', () => {
  it('hides the host layout when bindfs works: mountinfo names no host path, doctor says hidden', async () => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', LANG: 'C.UTF-8' };
    const decision = await decideHidePaths(env);
    expect(decision.mode).toBe('auto');
    expect(decision.use, 'CI installs bindfs and fuse3').toBe(true);
    expect(describeSandbox({ state: 'sandboxed', backend: 'bwrap' }, decision)).toMatch(/host paths hidden from \/proc\/self\/mountinfo/);
    const { sup: plain, dataDir: root } = makeSupervisor({ processEnv: env });
    try {
      const r = await plain.execute('df', 'python', READ_MOUNTS);
      expect(r.status, r.error?.traceback).toBe('ok');
      const seen = JSON.parse(r.stdout) as Record<string, string>;
      for (const text of [seen.self!, seen.pid1!]) {
        expect(text).not.toContain(root);
        expect(text).not.toContain('workspaces/df');
        expect(text).toMatch(/ \/ \/workspace rw[^\n]* - fuse /);
      }
    } finally {
      await plain.close();
    }
    expect(mountsUnder(path.join(root, 'run', 'mnt'))).toEqual([]);
  }, 120_000);

  it('off: plain binds, and the sandbox line says the host path is visible because it was turned off', async () => {
    const decision = await decideHidePaths({ ...process.env, OPENAI4S_SANDBOX_HIDE_PATHS: 'off' });
    expect(decision.use).toBe(false);
    expect(describeSandbox({ state: 'sandboxed', backend: 'bwrap' }, decision)).toMatch(/workspace host path visible in \/proc\/self\/mountinfo \(OPENAI4S_SANDBOX_HIDE_PATHS=off\)/);
  });
});

describe('fallback without bindfs', () => {
  const missing = { ...process.env, OPENAI4S_BINDFS: '/nonexistent/bindfs' };

  it('auto: the kernel runs with plain binds and the sandbox line says the host path is visible', async () => {
    const decision = await decideHidePaths({ ...missing, OPENAI4S_SANDBOX_HIDE_PATHS: 'auto' });
    expect(decision.use).toBe(false);
    expect(describeSandbox({ state: 'sandboxed', backend: 'bwrap' }, decision)).toMatch(/workspace host path visible in \/proc\/self\/mountinfo \(bindfs at \/nonexistent\/bindfs/);
    const { sup: plain, dataDir: root } = makeSupervisor({ processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', OPENAI4S_BINDFS: '/nonexistent/bindfs', OPENAI4S_SANDBOX_HIDE_PATHS: 'auto' } });
    try {
      const r = await plain.execute('fb', 'python', 'print(open("/proc/self/mountinfo").read())');
      expect(r.status, r.error?.traceback).toBe('ok');
      expect(r.stdout).toContain(path.join(root, 'workspaces', 'fb'));
      expect(mountsUnder(path.join(root, 'run', 'mnt'))).toEqual([]);
    } finally {
      await plain.close();
    }
  });

  it('on: the kernel refuses to start, naming the variable and the fix', async () => {
    const { sup: strict } = makeSupervisor({ processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', OPENAI4S_BINDFS: '/nonexistent/bindfs', OPENAI4S_SANDBOX_HIDE_PATHS: 'on' } });
    try {
      await expect(strict.execute('fb', 'python', 'print(1)')).rejects.toThrow(/OPENAI4S_SANDBOX_HIDE_PATHS=on .*bindfs.*set OPENAI4S_SANDBOX_HIDE_PATHS=auto/);
    } finally {
      await strict.close();
    }
  });
});

describe('a pre-warmed spare with OPENAI4S_SANDBOX_HIDE_PATHS=on', () => {
  it('keeps its view when its folder becomes the session workspace, and the view goes with the kernel', async () => {
    const { sup: warm, dataDir: root } = makeSupervisor({ prewarm: ['python'], processEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', ...HIDE } });
    const views = path.join(root, 'run', 'mnt');
    try {
      warm.openSession('sp');
      await warm.sparesSettled();
      const ws = path.join(root, 'workspaces', 'sp');
      fs.mkdirSync(ws, { recursive: true });
      fs.writeFileSync(path.join(ws, 'data.csv'), 'a,b\n');
      const r = await warm.execute('sp', 'python', 'import sys\nprint("numpy" in sys.modules)\nprint(open("data.csv").read().strip())\nopen("out.txt", "w").write("x")\nprint(open("/proc/self/mountinfo").read())');
      expect(r.status, r.error?.traceback).toBe('ok');
      const [warmed, csv] = r.stdout.split('\n');
      expect([warmed, csv]).toEqual(['True', 'a,b']);
      expect(r.stdout).not.toContain(root);
      expect(r.stdout).toMatch(/ \/ \/workspace rw[^\n]* - fuse /);
      expect(fs.readFileSync(path.join(ws, 'out.txt'), 'utf8')).toBe('x');
      await warm.closeSession('sp');
      // What is left is the replacement spare's view (workspace and cache), not the session's.
      await warm.close();
      expect(mountsUnder(views)).toEqual([]);
    } finally {
      await warm.close();
    }
  }, 120_000);
});
