import fs from 'node:fs';
import { closeDir, openRootDir, strategy, type DirHandle } from './dirHandle';
import { idleExpiry, type IdleExpiry } from '../shared/idleExpiry';
import { withWorkspaceRoot } from './safePath';

/** How long a workspace root stays open after its last use. */
const HOLD_MS = 2_000;
const MAX_HELD = 8;

interface Held {
  dir: DirHandle;
  /** Releases it HOLD_MS after its last use. */
  expiry: IdleExpiry;
}

const held = new Map<string, Held>();

function release(workspace: string): void {
  const entry = held.get(workspace);
  if (!entry) return;
  held.delete(workspace);
  entry.expiry.cancel();
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
    entry.expiry.touch();
    return { dir: entry.dir, owned: false };
  }
  if (entry) release(workspace);
  const dir = withWorkspaceRoot(workspace, openRootDir);
  if (held.size >= MAX_HELD) release(held.keys().next().value!);
  // A released entry's expiry is cancelled, so one that fires is the entry held now.
  held.set(workspace, { dir, expiry: idleExpiry(HOLD_MS, () => release(workspace)) });
  return { dir, owned: false };
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
