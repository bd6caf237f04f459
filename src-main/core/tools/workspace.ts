import fs from 'node:fs';
import path from 'node:path';

/**
 * Confinement of the file tools to the session workspace. Paths are relative to the
 * workspace; absolute paths, `..` segments and anything whose real path (symlinks
 * followed) leaves the workspace are refused with a message saying so.
 */

export class WorkspaceEscapeError extends Error {
  constructor(
    readonly requested: string,
    why: string,
  ) {
    super(`Refused path "${requested}": ${why}. Paths are relative to the session workspace (for example "data/table.csv").`);
    this.name = 'WorkspaceEscapeError';
  }
}

const inside = (root: string, p: string): boolean => p === root || p.startsWith(root.endsWith(path.sep) ? root : root + path.sep);

export function workspaceRoot(workspace: string): string {
  fs.mkdirSync(workspace, { recursive: true, mode: 0o700 });
  return fs.realpathSync(workspace);
}

/** Syntactic checks first: they need no file system and give the clearest message. */
function lexical(requested: string): string {
  if (typeof requested !== 'string') throw new WorkspaceEscapeError(String(requested), 'not a path');
  if (requested.includes('\0')) throw new WorkspaceEscapeError(requested.replace(/\0/g, '\\0'), 'it contains a NUL character');
  const unified = requested.replace(/\\/g, '/');
  if (path.isAbsolute(requested) || /^[a-zA-Z]:/.test(unified) || unified.startsWith('/')) {
    throw new WorkspaceEscapeError(requested, 'absolute paths are not allowed');
  }
  if (unified.split('/').some((seg) => seg === '..')) throw new WorkspaceEscapeError(requested, '".." segments are not allowed');
  const norm = path.posix.normalize(unified === '' ? '.' : unified);
  return norm;
}

/** A path to read or list: it must exist and its real path must be inside the workspace. */
export function resolveExisting(workspace: string, requested: string): { abs: string; rel: string } {
  const root = workspaceRoot(workspace);
  const rel = lexical(requested);
  const joined = path.join(root, rel);
  let real: string;
  try {
    real = fs.realpathSync(joined);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new Error(`No such file or folder in the workspace: "${rel}". List the folder with list_dir to see what exists.`);
    throw error;
  }
  if (!inside(root, real)) throw new WorkspaceEscapeError(requested, 'it is a symlink that points outside the workspace');
  return { abs: real, rel: path.relative(root, real).split(path.sep).join('/') || '.' };
}

/**
 * A path to write: the deepest existing ancestor must be inside the workspace (real path),
 * an existing target must not be a symlink, and missing folders are created after the check.
 */
export function resolveForWrite(workspace: string, requested: string): { abs: string; rel: string } {
  const root = workspaceRoot(workspace);
  const rel = lexical(requested);
  if (rel === '.' || rel.endsWith('/')) throw new WorkspaceEscapeError(requested, 'it names a folder, not a file');
  const target = path.join(root, rel);
  let probe = target;
  for (;;) {
    try {
      const st = fs.lstatSync(probe);
      if (probe === target && st.isSymbolicLink()) throw new WorkspaceEscapeError(requested, 'it is a symlink; write to a regular file instead');
      if (probe === target && st.isDirectory()) throw new WorkspaceEscapeError(requested, 'it is a folder');
      const real = fs.realpathSync(probe);
      if (!inside(root, real)) throw new WorkspaceEscapeError(requested, 'a folder on its path is a symlink that points outside the workspace');
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = path.dirname(probe);
      if (parent === probe) throw new WorkspaceEscapeError(requested, 'no part of it exists');
      probe = parent;
    }
  }
  fs.mkdirSync(path.dirname(target), { recursive: true });
  return { abs: target, rel };
}

/** Writes without following a symlink planted at the final component after the check. */
export function writeNoFollow(abs: string, content: string): number {
  const fd = fs.openSync(abs, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_TRUNC | fs.constants.O_NOFOLLOW, 0o644);
  try {
    const bytes = Buffer.from(content, 'utf8');
    fs.writeSync(fd, bytes);
    return bytes.length;
  } finally {
    fs.closeSync(fd);
  }
}
