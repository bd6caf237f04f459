import fs from 'node:fs';
import { closeDir, openRootDir, strategy, type DirHandle } from './dirHandle';
import { withWorkspaceRoot } from './safePath';

/** How long a workspace root stays open after its last use. */
const HOLD_MS = 2_000;
const MAX_HELD = 8;

interface Held {
  dir: DirHandle;
  /** performance.now() of the last use: the timer, when it fires, closes or waits the rest (no re-arming per call). */
  usedAt: number;
  timer: NodeJS.Timeout;
}

const held = new Map<string, Held>();

function release(workspace: string): void {
  const entry = held.get(workspace);
  if (!entry) return;
  held.delete(workspace);
  clearTimeout(entry.timer);
  closeDir(entry.dir);
}

/** The folder is gone: rmdir (or a spare's folder adopted in its place, spares.ts) leaves the held one unlinked. */
function unlinked(dir: DirHandle): boolean {
  try {
    return fs.fstatSync(dir.fd!).nlink === 0;
  } catch {
    return true;
  }
}

/**
 * The workspace root as a held descriptor, for walks that start there (safeFs.ts). A cell's
 * burst of host calls would otherwise open and close the root for every call; it is kept
 * open for HOLD_MS after its last use instead, and checked at each use (or, for a walk that
 * only looks entries up, after it failed: `releaseIfRemoved`): a root that was removed
 * meanwhile (its link count is 0) is opened again from its path. Only on Linux,
 * where walks go through the descriptor (dirHandle.ts `proc-fd`); elsewhere the walk is by
 * path and each call opens the root as before. `release` tells the caller whether it owns
 * the handle (and closes it) or the cache does.
 */
export function workspaceRootHandle(workspace: string, check: 'now' | 'on-not-found' = 'now'): { dir: DirHandle; owned: boolean } {
  if (strategy !== 'proc-fd') return { dir: withWorkspaceRoot(workspace, openRootDir), owned: true };
  const entry = held.get(workspace);
  if (entry && (check === 'on-not-found' || !unlinked(entry.dir))) {
    entry.usedAt = performance.now();
    return { dir: entry.dir, owned: false };
  }
  if (entry) release(workspace);
  const dir = withWorkspaceRoot(workspace, openRootDir);
  if (held.size >= MAX_HELD) release(held.keys().next().value!);
  const fresh: Held = { dir, usedAt: performance.now(), timer: setTimeout(() => expire(workspace, fresh), HOLD_MS) };
  fresh.timer.unref();
  held.set(workspace, fresh);
  return { dir, owned: false };
}

/** The hold's timer fired: released if unused for HOLD_MS, else it fires again when that will be so. */
function expire(workspace: string, entry: Held): void {
  if (held.get(workspace) !== entry) return;
  const idle = performance.now() - entry.usedAt;
  if (idle >= HOLD_MS) return release(workspace);
  entry.timer = setTimeout(() => expire(workspace, entry), HOLD_MS - idle);
  entry.timer.unref();
}

/**
 * A walk that only looks entries up (`check: 'on-not-found'`) failed with "not found": true
 * when the held root is the reason (it was removed; it is released, so the walk can start
 * again from the root's path). Every lookup in a removed folder fails with ENOENT, so such
 * a walk can skip the check (an fstat) at each use and make it only after a failure; a walk
 * that lists or creates cannot (a removed folder lists empty and is no error).
 */
export function releaseIfRemoved(workspace: string): boolean {
  const entry = held.get(workspace);
  if (!entry || !unlinked(entry.dir)) return false;
  release(workspace);
  return true;
}

/** Closes every held root (tests; in the app a removed root is noticed at its next use). */
export function releaseWorkspaceRoots(): void {
  for (const workspace of [...held.keys()]) release(workspace);
}

/** How many roots are held open now (the lifecycle test). */
export function heldWorkspaceRoots(): number {
  return held.size;
}
