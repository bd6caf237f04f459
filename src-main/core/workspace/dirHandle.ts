import fs from 'node:fs';

/**
 * Directory handles for walking a session workspace without ever following a symlink,
 * and without re-resolving a path that a cell can change between a check and a use.
 *
 * Node has no openat(2). The strategies, per platform:
 *
 * - Linux (`proc-fd`): a held directory is named `/proc/self/fd/<fd>`. The kernel resolves
 *   that magic link straight to the open directory, so `/proc/self/fd/<fd>/<name>` is
 *   exactly `openat(fd, name)`: renaming or swapping an ancestor for a symlink afterwards
 *   cannot redirect it. Each component is opened with O_NOFOLLOW (a symlink there fails
 *   with ELOOP, or ENOTDIR with O_DIRECTORY); mkdir, unlink, rename and lstat by such a
 *   path act on the entry itself and never follow a final symlink.
 * - macOS (`nofollow-any`): opens use O_NOFOLLOW_ANY on the real path of the root plus the
 *   relative path, so a symlink anywhere on the path fails the open atomically. mkdir,
 *   rename, unlink and readdir are by path there (best effort: an ancestor swapped between
 *   the checked open and the call could redirect them; the file contents are always read
 *   and written through descriptors opened with O_NOFOLLOW_ANY).
 * - Elsewhere (`best-effort`): each component is lstat'ed and refused when it is a
 *   symlink, then opened with O_NOFOLLOW where the platform has it. This narrows the race
 *   but does not close it; sandboxed kernels run on Linux and macOS only.
 */

const C = fs.constants;
const O_NOFOLLOW_ANY_DARWIN = 0x20000000;

export type Strategy = 'proc-fd' | 'nofollow-any' | 'best-effort';

export const strategy: Strategy = process.platform === 'linux' ? 'proc-fd' : process.platform === 'darwin' ? 'nofollow-any' : 'best-effort';

/** Added to every open: never follow a symlink (anywhere on the path, on macOS). */
const NO_FOLLOW = (C.O_NOFOLLOW ?? 0) | (strategy === 'nofollow-any' ? O_NOFOLLOW_ANY_DARWIN : 0);
/** Opening a fifo must not block the host (nor a device be started): checked by fstat after. */
const NON_BLOCK = C.O_NONBLOCK ?? 0;
const DIR_FLAGS = C.O_RDONLY | (C.O_DIRECTORY ?? 0) | NO_FOLLOW;

export interface DirHandle {
  /** The open directory (null only in the best-effort strategy). */
  readonly fd: number | null;
  /** A path that names this very directory for lookups of its children. */
  readonly path: string;
}

let procChecked = false;
function assertProcFd(): void {
  if (procChecked) return;
  if (!fs.existsSync('/proc/self/fd')) {
    throw new Error('/proc is not mounted, and the host needs /proc/self/fd to open workspace files safely; mount /proc (it is on every normal Linux system).');
  }
  procChecked = true;
}

/** The path of `name` inside the directory `dir`. */
export function childPath(dir: DirHandle, name: string): string {
  return `${dir.path}/${name}`;
}

function handleFor(fd: number, realPath: string): DirHandle {
  return { fd, path: strategy === 'proc-fd' ? `/proc/self/fd/${fd}` : realPath };
}

/** Opens the workspace root, whose path was resolved by realpath once. */
export function openRootDir(realRoot: string): DirHandle {
  if (strategy === 'proc-fd') assertProcFd();
  if (strategy === 'best-effort') {
    if (!fs.lstatSync(realRoot).isDirectory()) throw Object.assign(new Error(`not a folder: ${realRoot}`), { code: 'ENOTDIR' });
    return { fd: null, path: realRoot };
  }
  return handleFor(fs.openSync(realRoot, DIR_FLAGS), realRoot);
}

/** Opens the sub-folder `name` of `dir`; a symlink there fails with ELOOP or ENOTDIR. */
export function openChildDir(dir: DirHandle, name: string): DirHandle {
  const p = childPath(dir, name);
  if (strategy === 'best-effort') {
    const st = fs.lstatSync(p);
    if (st.isSymbolicLink()) throw Object.assign(new Error(`symlink: ${p}`), { code: 'ELOOP' });
    if (!st.isDirectory()) throw Object.assign(new Error(`not a folder: ${p}`), { code: 'ENOTDIR' });
    return { fd: null, path: p };
  }
  return handleFor(fs.openSync(p, DIR_FLAGS), p);
}

/**
 * Opens the entry `name` of `dir` with `flags` (plus no-follow and non-blocking). The
 * caller must fstat the descriptor to check its kind before using it.
 */
export function openChildFile(dir: DirHandle, name: string, flags: number, mode = 0o644): number {
  const p = childPath(dir, name);
  if (strategy === 'best-effort') {
    const st = fs.lstatSync(p, { throwIfNoEntry: false });
    if (st?.isSymbolicLink()) throw Object.assign(new Error(`symlink: ${p}`), { code: 'ELOOP' });
  }
  return fs.openSync(p, flags | NO_FOLLOW | NON_BLOCK, mode);
}

export function closeDir(dir: DirHandle | null): void {
  if (dir?.fd != null) fs.closeSync(dir.fd);
}

/**
 * Names in `dir`. On Linux, read through the held descriptor; on macOS by path, then
 * checked to still be the held folder (a swap in between is refused, not listed).
 */
export function readDirNames(dir: DirHandle): string[] {
  const names = fs.readdirSync(dir.path);
  if (strategy === 'nofollow-any' && dir.fd !== null) {
    const held = fs.fstatSync(dir.fd);
    const now = fs.lstatSync(dir.path);
    if (held.ino !== now.ino || held.dev !== now.dev) throw new Error(`The folder "${dir.path}" was replaced while it was listed; try again.`);
  }
  return names;
}
