import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { childPath, closeDir, openChildDir, openChildFile, readDirNames, strategy, type DirHandle } from './dirHandle';
import { heldFileFor, holdFile, isHeld, releaseHeldFile } from './heldFiles';
import { releaseIfRemoved, workspaceRootHandle } from './heldRoots';
import { isProtectedRootName } from '../security/protectedPaths';
import {
  WorkspaceEscapeError,
  WorkspaceKindError,
  WorkspaceNotFoundError,
  assertWritable,
  components,
  workspaceRelative,
  withWorkspaceRoot,
} from './safePath';

/**
 * The one way the host touches files of a session workspace (tools, host calls from
 * cells, figures, artifacts, attachments, downloads, exports). A cell shares the
 * workspace and can swap any folder in it for a symlink at any moment, so nothing here
 * checks a path and then reopens it by name: every operation walks from a descriptor held
 * on the workspace root, one component at a time, refusing symlinks at each step (see
 * dirHandle.ts), and then reads, writes or lists through the descriptor it opened.
 * Writes to protected names (.git, .env, shell rc files, ...) are refused.
 */

export { WorkspaceEscapeError, ProtectedPathError, WorkspaceKindError, WorkspaceNotFoundError, workspaceRelative, workspaceRoot } from './safePath';

const C = fs.constants;

export type EntryKind = 'file' | 'dir' | 'link' | 'other';
export interface WorkspaceEntry {
  name: string;
  kind: EntryKind;
  /** Bytes, for regular files only. */
  size: number | null;
}
export interface OpenedFile {
  fd: number;
  stat: fs.Stats;
  /** Normalised workspace-relative path. */
  rel: string;
}

const SYMLINK_WHY = 'and the host never follows symlinks in the workspace (one could lead outside the session workspace); use the real path';

/** Turns an errno from step `index` of `parts` into a message about the requested path. */
function explain(error: unknown, requested: string, parts: string[], index: number, parent: DirHandle): Error {
  const code = (error as NodeJS.ErrnoException)?.code;
  const rel = parts.join('/') || '.';
  const prefix = parts.slice(0, index + 1).join('/');
  const final = index === parts.length - 1;
  const symlink = () => new WorkspaceEscapeError(requested, final ? `it is a symlink, ${SYMLINK_WHY}` : `"${prefix}" on its path is a symlink, ${SYMLINK_WHY}`);
  if (code === 'ENOENT') return new WorkspaceNotFoundError(rel);
  if (code === 'ELOOP') return symlink();
  if (code === 'ENOTDIR') {
    // Only for the message: the refusal itself came from the open.
    let isLink = false;
    try {
      isLink = fs.lstatSync(childPath(parent, parts[index]!)).isSymbolicLink();
    } catch {
      // gone meanwhile: report it as not a folder
    }
    if (isLink) return symlink();
    return new WorkspaceKindError(rel, final ? `"${rel}" is a file, not a folder; read it with read_text_file.` : `"${prefix}" is a file, not a folder, so "${rel}" cannot exist.`);
  }
  if (code === 'EISDIR') return new WorkspaceKindError(rel, `"${rel}" is a folder, not a file; list it with list_dir.`);
  if (code === 'ENXIO') return notRegular(rel);
  return error instanceof Error ? error : new Error(String(error));
}

const notRegular = (rel: string) =>
  new WorkspaceKindError(rel, `"${rel}" is not a regular file (a fifo, socket or device); the host reads and writes only regular files and folders.`);

/** Writing in place through a second hard link would change that other file too (it may be outside the workspace). */
const hardLinked = (rel: string) =>
  new WorkspaceKindError(rel, `"${rel}" has other hard links, and the host never writes through them (one could be a file outside the workspace); write to a new name instead.`);

/**
 * Opens the folders `parts` one by one from the workspace root and calls `fn` with the
 * last one; `create` makes missing folders (never through a symlink). Every descriptor
 * is closed before returning, on errors too.
 */
function withDir<T>(workspace: string, requested: string, all: string[], depth: number, create: boolean, fn: (dir: DirHandle) => T): T {
  return walkDir(workspaceRootHandle(workspace), requested, all, depth, create, fn);
}

/**
 * `withDir` for a walk that only opens existing entries (`fn` opens one, creating nothing):
 * the held root is checked only if the walk finds nothing, and the walk is made again from
 * the root's path when the root was removed (see heldRoots.ts `releaseIfRemoved`). A cell's
 * burst of reads then costs no fstat of the root per call.
 */
function withExistingDir<T>(workspace: string, requested: string, all: string[], depth: number, fn: (dir: DirHandle) => T): T {
  try {
    return walkDir(workspaceRootHandle(workspace, 'on-not-found'), requested, all, depth, false, fn);
  } catch (error) {
    if (!(error instanceof WorkspaceNotFoundError) || !releaseIfRemoved(workspace)) throw error;
    return withDir(workspace, requested, all, depth, false, fn);
  }
}

function walkDir<T>(root: { dir: DirHandle; owned: boolean }, requested: string, all: string[], depth: number, create: boolean, fn: (dir: DirHandle) => T): T {
  // The root may be held open between calls (heldRoots.ts): closed here only if this walk owns it.
  const close = (d: DirHandle) => {
    if (d !== root.dir || root.owned) closeDir(d);
  };
  let dir = root.dir;
  try {
    for (let i = 0; i < depth; i++) {
      const next = openDirStep(dir, all, i, create, requested);
      const prev = dir;
      dir = next;
      close(prev);
    }
    return fn(dir);
  } finally {
    close(dir);
  }
}

function openDirStep(dir: DirHandle, parts: string[], index: number, create: boolean, requested: string): DirHandle {
  const name = parts[index]!;
  try {
    return openChildDir(dir, name);
  } catch (error) {
    if (!create || (error as NodeJS.ErrnoException).code !== 'ENOENT') throw explain(error, requested, parts, index, dir);
  }
  try {
    // mkdir of `<held dir>/<name>` creates the entry itself: a symlink planted there
    // meanwhile makes it fail with EEXIST, and the open below refuses the symlink.
    fs.mkdirSync(childPath(dir, name));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw explain(error, requested, parts, index, dir);
  }
  try {
    return openChildDir(dir, name);
  } catch (error) {
    throw explain(error, requested, parts, index, dir);
  }
}

/** Opens the existing last component of `requested` with `flags` (never O_CREAT); the caller owns the descriptor. */
function openEntry(workspace: string, requested: string, flags: number): OpenedFile {
  const rel = workspaceRelative(requested);
  const parts = components(rel);
  if (parts.length === 0) {
    const fd = withWorkspaceRoot(workspace, (root) => fs.openSync(root, C.O_RDONLY | (C.O_DIRECTORY ?? 0)));
    return { fd, stat: fs.fstatSync(fd), rel };
  }
  const fd = withExistingDir(workspace, requested, parts, parts.length - 1, (dir) => {
    try {
      return openChildFile(dir, parts.at(-1)!, flags);
    } catch (error) {
      throw explain(error, requested, parts, parts.length - 1, dir);
    }
  });
  try {
    return { fd, stat: fs.fstatSync(fd), rel };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

/** Opens an existing regular file; anything else (folder, fifo, device) is refused. */
function openRegular(workspace: string, requested: string, access: 'read' | 'readwrite'): OpenedFile {
  if (access === 'readwrite') assertWritable(workspaceRelative(requested));
  const file = openEntry(workspace, requested, access === 'read' ? C.O_RDONLY : C.O_RDWR);
  if (!file.stat.isFile() || (access === 'readwrite' && file.stat.nlink > 1)) {
    fs.closeSync(file.fd);
    if (file.stat.isDirectory()) throw new WorkspaceKindError(file.rel, `"${file.rel}" is a folder, not a file; list it with list_dir.`);
    throw file.stat.isFile() ? hardLinked(file.rel) : notRegular(file.rel);
  }
  return file;
}

/** Runs `fn` on an existing regular file opened without following symlinks, then closes it. */
export function withWorkspaceFile<T>(workspace: string, requested: string, access: 'read' | 'readwrite', fn: (file: OpenedFile) => T): T {
  const file = openRegular(workspace, requested, access);
  try {
    return fn(file);
  } finally {
    fs.closeSync(file.fd);
  }
}

/** The async form, for streaming reads; the descriptor is closed when `fn` settles. */
export async function withWorkspaceFileAsync<T>(workspace: string, requested: string, access: 'read' | 'readwrite', fn: (file: OpenedFile) => Promise<T>): Promise<T> {
  const file = openRegular(workspace, requested, access);
  try {
    return await fn(file);
  } finally {
    fs.closeSync(file.fd);
  }
}

/** Reads `length` bytes from position 0 of `fd` (fewer at end of file). */
export function readFromStart(fd: number, length: number): Buffer {
  const buf = Buffer.alloc(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buf, got, length - got, got);
    if (n === 0) break;
    got += n;
  }
  return got === length ? buf : buf.subarray(0, got);
}

/**
 * A whole regular file of at most `maxBytes`, read at once; null when it is bigger (the
 * caller reads a range instead). On Linux its descriptor stays open for the next read of
 * the same name (heldFiles.ts): a cell's loop of reads of one file then costs an lstat and
 * a pread a call instead of an open, fstat, pread and close.
 */
export function readSmallWorkspaceFile(workspace: string, requested: string, maxBytes: number): { rel: string; size: number; bytes: Buffer } | null {
  const small = (fd: number, size: number, rel: string) => (size <= maxBytes ? { rel, size, bytes: readFromStart(fd, size) } : null);
  if (strategy !== 'proc-fd') return withWorkspaceFile(workspace, requested, 'read', ({ fd, stat, rel }) => small(fd, stat.size, rel));
  const rel = workspaceRelative(requested);
  if (isHeld(workspace, rel)) {
    const now = lookUp(workspace, requested, components(rel));
    const fd = heldFileFor(workspace, rel, now);
    if (fd !== null && now) {
      if (now.size <= maxBytes) return small(fd, now.size, rel);
      releaseHeldFile(workspace, rel); // grown past the limit: read in ranges now, not kept
      return null;
    }
  }
  const file = openRegular(workspace, requested, 'read');
  if (file.stat.size > maxBytes) {
    fs.closeSync(file.fd); // read in ranges by the caller: not kept
    return null;
  }
  holdFile(workspace, file.rel, file.fd, file.stat);
  return small(file.fd, file.stat.size, file.rel);
}

/** The last component of `parts`, looked up without following it (lstat) through the safe walk; null if that fails. */
function lookUp(workspace: string, requested: string, parts: string[]): fs.Stats | null {
  if (parts.length === 0) return null;
  try {
    return withExistingDir(workspace, requested, parts, parts.length - 1, (dir) => fs.lstatSync(childPath(dir, parts.at(-1)!)));
  } catch {
    return null; // the open that follows says why
  }
}

/** A whole regular file; `maxBytes` refuses bigger files with `tooBig`'s error before reading. */
export function readWorkspaceFile(workspace: string, requested: string, limit?: { maxBytes: number; tooBig: (size: number, rel: string) => Error }): { rel: string; bytes: Buffer } {
  return withWorkspaceFile(workspace, requested, 'read', ({ fd, stat, rel }) => {
    if (limit && stat.size > limit.maxBytes) throw limit.tooBig(stat.size, rel);
    return { rel, bytes: readFromStart(fd, stat.size) };
  });
}

/** Writes all of `bytes` from position 0 of `fd`. */
export function writeAll(fd: number, bytes: Uint8Array): void {
  let done = 0;
  while (done < bytes.length) done += fs.writeSync(fd, bytes, done, bytes.length - done, done);
}

/**
 * Creates or replaces a regular file, making missing folders. `exclusive` fails with
 * EEXIST when the name exists; `atomic` writes a temporary file and renames it over the
 * name (on Linux; elsewhere it writes in place), so readers never see half a file.
 */
export function writeWorkspaceFile(
  workspace: string,
  requested: string,
  data: string | Uint8Array,
  opts: { exclusive?: boolean; atomic?: boolean } = {},
): { rel: string; bytes: number } {
  const rel = workspaceRelative(requested);
  const parts = components(rel);
  if (parts.length === 0 || String(requested).replace(/\\/g, '/').endsWith('/')) throw new WorkspaceEscapeError(requested, 'it names a folder, not a file');
  assertWritable(rel);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const name = parts.at(-1)!;
  withDir(workspace, requested, parts, parts.length - 1, true, (dir) => {
    if (opts.atomic && !opts.exclusive && strategy === 'proc-fd') return writeByRename(dir, name, bytes, requested, parts);
    let fd: number;
    try {
      fd = openChildFile(dir, name, C.O_WRONLY | C.O_CREAT | (opts.exclusive ? C.O_EXCL : 0));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw error;
      throw explain(error, requested, parts, parts.length - 1, dir);
    }
    try {
      const st = fs.fstatSync(fd);
      if (!st.isFile()) throw notRegular(rel);
      if (st.nlink > 1) throw hardLinked(rel);
      if (!opts.exclusive) fs.ftruncateSync(fd, 0);
      writeAll(fd, bytes);
    } finally {
      fs.closeSync(fd);
    }
  });
  return { rel, bytes: bytes.length };
}

/** The atomic write: a fresh temporary entry in the held folder, renamed over `name`. */
function writeByRename(dir: DirHandle, name: string, bytes: Uint8Array, requested: string, parts: string[]): void {
  const tmp = `.${name.slice(0, 100)}.${randomBytes(6).toString('hex')}.partial`;
  const fd = openChildFile(dir, tmp, C.O_WRONLY | C.O_CREAT | C.O_EXCL, 0o644);
  let open = true;
  let renamed = false;
  try {
    writeAll(fd, bytes);
    fs.closeSync(fd);
    open = false;
    // rename replaces the entry `name` itself (a symlink there is replaced, not followed).
    fs.renameSync(childPath(dir, tmp), childPath(dir, name));
    renamed = true;
  } catch (error) {
    throw explain(error, requested, parts, parts.length - 1, dir);
  } finally {
    if (open) fs.closeSync(fd);
    if (!renamed) fs.rmSync(childPath(dir, tmp), { force: true });
  }
}

function kindOf(st: fs.Stats): EntryKind {
  return st.isDirectory() ? 'dir' : st.isSymbolicLink() ? 'link' : st.isFile() ? 'file' : 'other';
}

function isEmptyPlaceholder(dir: DirHandle, name: string, kind: EntryKind, size: number): boolean {
  if (!isProtectedRootName(name)) return false;
  if (kind === 'file') return size === 0;
  if (kind !== 'dir') return false;
  try {
    return fs.readdirSync(childPath(dir, name)).length === 0;
  } catch {
    // Unreadable: not known to be an empty placeholder, so it is listed.
    return false;
  }
}

/** The entries of a folder (symlinks listed as links, never followed), sorted by name. */
export function listWorkspaceDir(workspace: string, requested: string): { rel: string; entries: WorkspaceEntry[] } {
  const rel = workspaceRelative(requested);
  const parts = components(rel);
  const entries = withDir(workspace, requested, parts, parts.length, false, (dir) => {
    const rows: WorkspaceEntry[] = [];
    for (const name of readDirNames(dir)) {
      // lstat of `<held dir>/<name>` describes the entry itself, never a symlink's target.
      const st = fs.lstatSync(childPath(dir, name), { throwIfNoEntry: false });
      if (!st) continue;
      const kind = kindOf(st);
      // The sandbox's empty read-only placeholders of protected names (see
      // kernel/protectedMounts.ts) are mount points, not content: not listed at the root.
      if (parts.length === 0 && isEmptyPlaceholder(dir, name, kind, st.size)) continue;
      rows.push({ name, kind, size: kind === 'file' ? st.size : null });
    }
    return rows;
  });
  entries.sort((x, y) => x.name.localeCompare(y.name));
  return { rel, entries };
}

/** What the path names, without following a symlink there (a symlink is refused). */
export function workspaceEntryKind(workspace: string, requested: string): { rel: string; kind: EntryKind; size: number } {
  const file = openEntry(workspace, requested, C.O_RDONLY);
  try {
    return { rel: file.rel, kind: kindOf(file.stat), size: file.stat.size };
  } finally {
    fs.closeSync(file.fd);
  }
}

/**
 * Regular files under a folder (or the file itself), workspace-relative, in name order,
 * at most `limit`. Folders are opened one by one from the root without following
 * symlinks, so a folder swapped for a symlink mid-walk is skipped, never entered.
 */
export function walkWorkspaceFiles(workspace: string, requested: string, limit: number): string[] {
  const start = workspaceEntryKind(workspace, requested);
  if (start.kind === 'file') return [start.rel];
  if (start.kind !== 'dir') return [];
  const files: string[] = [];
  const stack = [start.rel];
  while (stack.length) {
    const current = stack.pop()!;
    let entries: WorkspaceEntry[];
    try {
      entries = listWorkspaceDir(workspace, current).entries;
    } catch {
      // Gone or replaced (e.g. by a symlink) since its parent was listed: nothing to walk.
      continue;
    }
    for (const e of entries.reverse()) {
      const child = current === '.' ? e.name : `${current}/${e.name}`;
      if (e.kind === 'dir') stack.push(child);
      else if (e.kind === 'file') {
        if (files.length >= limit) return files;
        files.push(child);
      }
    }
  }
  return files;
}
