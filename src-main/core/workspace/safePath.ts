import fs from 'node:fs';
import path from 'node:path';
import { protectedReason } from '../security/protectedPaths';

/**
 * The lexical half of workspace confinement and the errors of every host-side file
 * operation on a session workspace (see safeFs.ts for the file-system half).
 */

/** A path that would leave the workspace: absolute, `..`, NUL, or through a symlink. */
export class WorkspaceEscapeError extends Error {
  constructor(
    readonly requested: string,
    why: string,
  ) {
    super(`Refused path "${requested}": ${why}. Paths are relative to the session workspace (for example "data/table.csv").`);
    this.name = 'WorkspaceEscapeError';
  }
}

/** A write to a name that other programs execute or trust (.git, .env, shell rc files, ...). */
export class ProtectedPathError extends Error {
  constructor(
    readonly rel: string,
    reason: string,
  ) {
    super(`Refused to write "${rel}": ${reason}.`);
    this.name = 'ProtectedPathError';
  }
}

/** Nothing exists at the path (or a folder on its way). */
export class WorkspaceNotFoundError extends Error {
  constructor(readonly rel: string) {
    super(`No such file or folder in the workspace: "${rel}". List the folder with list_dir to see what exists.`);
    this.name = 'WorkspaceNotFoundError';
  }
}

/** Something exists but is the wrong kind: a folder for a file, a fifo or device, ... */
export class WorkspaceKindError extends Error {
  constructor(
    readonly rel: string,
    message: string,
  ) {
    super(message);
    this.name = 'WorkspaceKindError';
  }
}

/** Resolved workspace folders, so a burst of host calls does not mkdir and lstat the whole path each time. */
const resolvedRoots = new Map<string, string>();
const MAX_RESOLVED_ROOTS = 256;

/**
 * The workspace folder itself, created if missing, with symlinks in its own path resolved
 * once (and remembered: the folder and its parents belong to the app, not to the cell).
 * A caller whose open of the remembered folder fails with ENOENT calls
 * `forgetWorkspaceRoot` and asks again, so a folder removed meanwhile is made again.
 */
export function workspaceRoot(workspace: string): string {
  const known = resolvedRoots.get(workspace);
  if (known !== undefined) return known;
  fs.mkdirSync(workspace, { recursive: true, mode: 0o700 });
  const real = fs.realpathSync(workspace);
  if (resolvedRoots.size >= MAX_RESOLVED_ROOTS) resolvedRoots.clear();
  resolvedRoots.set(workspace, real);
  return real;
}

/** Drops a remembered workspace folder; true if one was remembered. */
export function forgetWorkspaceRoot(workspace: string): boolean {
  return resolvedRoots.delete(workspace);
}

/** Runs `open` on the workspace folder; if the remembered folder is gone (ENOENT), resolves (and creates) it again once. */
export function withWorkspaceRoot<T>(workspace: string, open: (root: string) => T): T {
  try {
    return open(workspaceRoot(workspace));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || !forgetWorkspaceRoot(workspace)) throw error;
    return open(workspaceRoot(workspace));
  }
}

/**
 * Syntactic checks first: they need no file system and give the clearest message.
 * Backslashes count as separators (so `..\x` is caught on every platform). Returns the
 * normalised workspace-relative path with forward slashes, "." for the workspace itself.
 */
export function workspaceRelative(requested: string): string {
  if (typeof requested !== 'string') throw new WorkspaceEscapeError(String(requested), 'not a path');
  if (requested.includes('\0')) throw new WorkspaceEscapeError(requested.replace(/\0/g, '\\0'), 'it contains a NUL character');
  const unified = requested.replace(/\\/g, '/');
  if (path.isAbsolute(requested) || /^[a-zA-Z]:/.test(unified) || unified.startsWith('/')) {
    throw new WorkspaceEscapeError(requested, 'absolute paths are not allowed');
  }
  if (unified.split('/').some((seg) => seg === '..')) throw new WorkspaceEscapeError(requested, '".." segments are not allowed');
  const norm = path.posix.normalize(unified === '' ? '.' : unified).replace(/\/+$/, '');
  return norm === '' ? '.' : norm;
}

/** The path's components ([] for the workspace itself). */
export function components(rel: string): string[] {
  return rel === '.' ? [] : rel.split('/');
}

/** Throws the protected-name refusal for a write to `rel`. */
export function assertWritable(rel: string): void {
  const reason = protectedReason(rel);
  if (reason) throw new ProtectedPathError(rel, reason);
}
