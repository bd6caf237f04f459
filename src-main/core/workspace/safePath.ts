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

/** The workspace folder itself, created if missing, with symlinks in its own path resolved once. */
export function workspaceRoot(workspace: string): string {
  fs.mkdirSync(workspace, { recursive: true, mode: 0o700 });
  return fs.realpathSync(workspace);
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
