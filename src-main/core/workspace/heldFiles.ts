import fs from 'node:fs';
import { idleExpiry, type IdleExpiry } from '../shared/idleExpiry';

/**
 * Read-only descriptors of workspace files, kept open briefly between reads. A cell that
 * calls `host.read_file` in a loop would otherwise open, fstat and close the same file for
 * every call (three of the four system calls of a small read). A held descriptor is used
 * again only while the file's name still leads to the same file: the reader looks the name
 * up without following it (lstat through the held folder, safeFs.ts) and compares device
 * and inode; anything else (the name gone, replaced by another file or a symlink) releases
 * it and the file is opened again the safe way. Reading through it is then exactly reading
 * a descriptor opened now: the same inode, its current contents and size.
 *
 * Only the descriptor is kept, never contents. At most MAX_HELD, each closed HOLD_MS after
 * its last use (so a deleted file's space is freed soon after) and all of a workspace's
 * when its session goes (`releaseHeldFiles`).
 */

const HOLD_MS = 2_000;
const MAX_HELD = 16;

interface Held {
  fd: number;
  dev: number;
  ino: number;
  /** Closes it HOLD_MS after its last use. */
  expiry: IdleExpiry;
}

/** By workspace, then by the file's normalised workspace-relative path. */
const held = new Map<string, Map<string, Held>>();
let count = 0;

/** Closes the held descriptor of `rel`, if any. */
export function releaseHeldFile(workspace: string, rel: string): void {
  const files = held.get(workspace);
  const entry = files?.get(rel);
  if (!files || !entry) return;
  files.delete(rel);
  if (files.size === 0) held.delete(workspace);
  count--;
  entry.expiry.cancel();
  try {
    fs.closeSync(entry.fd);
  } catch {
    // already closed: nothing to release
  }
}

/**
 * The held descriptor of `rel` when `now` (the name's lstat, just made) is the same file;
 * otherwise the held one (if any) is closed and null returned.
 */
export function heldFileFor(workspace: string, rel: string, now: fs.Stats | null): number | null {
  const entry = held.get(workspace)?.get(rel);
  if (!entry) return null;
  if (now && now.isFile() && now.ino === entry.ino && now.dev === entry.dev) {
    entry.expiry.touch();
    return entry.fd;
  }
  releaseHeldFile(workspace, rel);
  return null;
}

/** Whether `rel` has a held descriptor (a reader then looks the name up before opening it). */
export function isHeld(workspace: string, rel: string): boolean {
  return held.get(workspace)?.has(rel) ?? false;
}

/** Keeps `fd` (a regular file opened read-only by the safe walk, described by `stat`); the caller no longer closes it. */
export function holdFile(workspace: string, rel: string, fd: number, stat: fs.Stats): void {
  releaseHeldFile(workspace, rel);
  if (count >= MAX_HELD) {
    // The oldest workspace's oldest file (maps iterate in insertion order).
    const [oldestWorkspace, files] = held.entries().next().value!;
    releaseHeldFile(oldestWorkspace, files.keys().next().value!);
  }
  let files = held.get(workspace);
  if (!files) held.set(workspace, (files = new Map()));
  // A released entry's expiry is cancelled, so one that fires is the entry held now.
  files.set(rel, { fd, dev: stat.dev, ino: stat.ino, expiry: idleExpiry(HOLD_MS, () => releaseHeldFile(workspace, rel)) });
  count++;
}

/** Closes the held descriptors of a workspace (its session was deleted), or of every workspace. */
export function releaseHeldFiles(workspace?: string): void {
  for (const ws of workspace === undefined ? [...held.keys()] : [workspace]) {
    for (const rel of [...(held.get(ws)?.keys() ?? [])]) releaseHeldFile(ws, rel);
  }
}

/** How many descriptors are held now (the lifecycle test, diagnostics). */
export function heldFileCount(): number {
  return count;
}
