import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable } from 'node:stream';
import type { ChildLike } from './processControl';
import type { Spawner } from './spawner/spawner';

/**
 * A FUSE pass-through view (bindfs) of one host folder, mounted at a private host mount
 * point. Why: bound into the sandbox, the view is the root of its own file system, so
 * field 4 of /proc/self/mountinfo (the mount's root inside its file system) says `/`
 * instead of the folder's host path. bindfs reads its source from `/proc/self/fd/3` (an
 * fd we pass), so the mount's source field names no host path either (bindfs 1.14 sets
 * the source to its first argument and ignores `-o fsname`).
 */
export interface FuseTools {
  bindfs: string;
  /** fusermount3 (or fusermount): unmounts without privileges. */
  fusermount: string;
}

const O_DIRECTORY = fs.constants.O_DIRECTORY ?? 0o200000;

const MOUNT_TIMEOUT_MS = 15_000;
const UNMOUNT_TIMEOUT_MS = 10_000;

/**
 * Mounts a view of `source` at `mountPoint` (created 0700), without blocking the event
 * loop: a kernel start in Electron's main process must not freeze the window for bindfs's
 * ~25 ms (more on a loaded machine). bindfs forks its daemon once the mount exists, so the
 * mount is ready when this resolves. Options: `--no-allow-other`: only our own user (the
 * sandbox runs as it) may enter the mount, and an unprivileged fusermount needs no
 * /etc/fuse.conf change; single-threaded (the default): every request on the view goes
 * through one daemon in order (see pathViews.ts for why that matters); bindfs 1.14 with
 * libfuse 3 turns off the entry, attribute and negative caches itself, so host-side writes
 * are visible at once.
 */
export async function mountViewAsync(tools: FuseTools, source: string, mountPoint: string, readOnly: boolean, spawner?: Spawner): Promise<void> {
  await fs.promises.mkdir(mountPoint, { recursive: true, mode: 0o700 });
  // bindfs reads the folder through `/proc/self/fd/3`: a directory, never a symlink's target.
  const fd = fs.openSync(source, fs.constants.O_RDONLY | O_DIRECTORY | fs.constants.O_NOFOLLOW);
  try {
    const args = ['--no-allow-other', ...(readOnly ? ['-r'] : []), '/proc/self/fd/3', mountPoint];
    const out = await runHelper(tools.bindfs, args, fd, MOUNT_TIMEOUT_MS, spawner);
    if (out.error || out.status !== 0) {
      const why = out.error ? out.error.message : `exit code ${out.status}: ${out.stderr.trim().split('\n').at(-1) ?? ''}`;
      removeMountPoint(mountPoint);
      throw new Error(`bindfs could not mount a view of the workspace (${why})`);
    }
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Runs bindfs or fusermount as a child process and resolves when it exits (or is stopped
 * at `timeoutMs`), with its exit status and stderr. The daemon bindfs forks does not hold
 * our stderr pipe (libfuse daemonizes onto /dev/null), so the pipe ends with the helper.
 * Through the spawner when there is one (no fork of the app), else Node's spawn.
 */
async function runHelper(file: string, args: string[], fd: number | null, timeoutMs: number, spawner?: Spawner): Promise<{ status: number | null; error?: Error; stderr: string }> {
  let child: ChildLike | null = (await spawner?.spawn(file, args, { env: process.env, fds: ['ignore', 'ignore', 'write', ...(fd === null ? [] : [{ fd }])] })) ?? null;
  try {
    child ??= spawn(file, args, { stdio: ['ignore', 'ignore', 'pipe', ...(fd === null ? [] : [fd])] });
  } catch (error) {
    return { status: null, error: error as Error, stderr: '' };
  }
  const running = child;
  return new Promise((resolve) => {
    let stderr = '';
    let settled = false;
    const timer = setTimeout(() => running.kill('SIGTERM'), timeoutMs);
    const done = (out: { status: number | null; error?: Error }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...out, stderr });
    };
    // None when it never started (its error event says why).
    const err = running.stdio[2] as Readable | null | undefined;
    err?.setEncoding('utf8');
    err?.on('data', (text: string) => (stderr = (stderr + text).slice(-4096)));
    running.once('error', (error) => done({ status: null, error }));
    running.once('close', (status, signal) => done(signal ? { status, error: new Error(`${path.basename(file)} was stopped by ${signal} after ${timeoutMs} ms`) } : { status }));
  });
}

function removeMountPoint(mountPoint: string): void {
  try {
    fs.rmdirSync(mountPoint);
  } catch {
    // still mounted (busy) or already gone: the next start's cleanup retries
  }
}

/**
 * Detaches the view (lazily: a sandbox still holding its copy keeps it until it ends,
 * then the daemon exits) and removes the mount point. Blocking: for the app's exit; a
 * kernel's views go with `unmountViewAsync`.
 */
export function unmountView(fusermount: string, mountPoint: string): void {
  spawnSync(fusermount, ['-u', '-z', mountPoint], { stdio: 'ignore', timeout: UNMOUNT_TIMEOUT_MS });
  removeMountPoint(mountPoint);
}

/** `unmountView` without blocking the event loop (a kernel's exit). Never rejects. */
export async function unmountViewAsync(fusermount: string, mountPoint: string, spawner?: Spawner): Promise<void> {
  await runHelper(fusermount, ['-u', '-z', mountPoint], null, UNMOUNT_TIMEOUT_MS, spawner);
  removeMountPoint(mountPoint);
}

/** Mount points under `root` in this mount namespace (from /proc/self/mountinfo). */
export function mountsUnder(root: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync('/proc/self/mountinfo', 'utf8');
  } catch {
    // No /proc (not Linux): no FUSE views can exist.
    return [];
  }
  const prefix = `${root.replace(/\/+$/, '')}/`;
  // Field 5 is the mount point, with space, tab, newline and backslash octal-escaped.
  const points = text.split('\n').map((line) => (line.split(' ')[4] ?? '').replace(/\\([0-7]{3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8))));
  return points.filter((p) => p.startsWith(prefix));
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Views left by an app that died without unmounting (kill -9): each mount point is
 * named `<pid>-<id>`, and those of a process that is gone are unmounted and removed.
 * Another live instance sharing the data root (a CLI command) keeps its own.
 */
export function cleanStaleViews(runDir: string, fusermount: string | null): void {
  let names: string[];
  try {
    names = fs.readdirSync(runDir);
  } catch {
    // No run folder yet: no view was ever mounted, so none is stale.
    return;
  }
  const mounted = new Set(mountsUnder(runDir));
  for (const name of names) {
    const pid = Number(name.split('-')[0]);
    if (Number.isInteger(pid) && pid > 0 && alive(pid)) continue;
    const point = path.join(runDir, name);
    if (mounted.has(point) && fusermount) spawnSync(fusermount, ['-u', '-z', point], { stdio: 'ignore', timeout: 10_000 });
    removeMountPoint(point);
  }
}
