import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { PROTECTED_DIRS, PROTECTED_FILES } from '../security/protectedPaths';

/** O_PATH: an fd that names a file without opening it for reading (Linux). */
const O_PATH = 0o10000000;

export interface ProtectedHandle {
  name: string;
  fd: number;
}

// The callback forms give the raw fd numbers bwrap's stdio takes (a FileHandle would close itself).
const open = promisify(fs.open);
const fstat = promisify(fs.fstat);
const close = promisify(fs.close);

function openPath(file: string): Promise<number> {
  return open(file, O_PATH | fs.constants.O_NOFOLLOW);
}

/** Creates an empty placeholder for a missing protected name (one that appeared meanwhile is fine). */
async function createPlaceholder(file: string, isDir: boolean): Promise<void> {
  try {
    if (isDir) await fs.promises.mkdir(file, { mode: 0o700 });
    else await close(await open(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW, 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/** The handle on one protected name, made safe to mount (see below). */
async function protectName(workspace: string, name: string, isDir: boolean): Promise<ProtectedHandle> {
  const file = path.join(workspace, name);
  for (let attempt = 0; attempt < 3; attempt++) {
    let opened: number;
    try {
      opened = await openPath(file);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      await createPlaceholder(file, isDir);
      continue;
    }
    if ((await fstat(opened)).isSymbolicLink()) {
      await close(opened);
      await fs.promises.unlink(file);
      continue;
    }
    return { name, fd: opened };
  }
  throw new Error(`cannot protect ${name} in the workspace: it keeps changing`);
}

/**
 * Handles on every protected name at the workspace root, for bwrap to mount read-only
 * over itself (`--ro-bind-fd`). Each is opened with O_PATH|O_NOFOLLOW, so what gets
 * mounted is exactly the object checked here, never a symlink's target, even if a cell
 * of another kernel swaps names meanwhile. A missing name gets an empty placeholder
 * (folder 0700 or file 0600), because a mount needs something to sit on: that is what a
 * sandboxed kernel leaves on the host. A symlink at a protected name is removed (never
 * its target) and replaced by a placeholder: nothing in the sandbox may resolve it.
 * Asynchronous: a kernel start must not hold the main process's event loop for these
 * syscalls (a dozen names, through the FUSE view when there is one).
 */
export async function openProtectedNames(workspace: string): Promise<ProtectedHandle[]> {
  const entries: [string, boolean][] = [...PROTECTED_DIRS.map((n): [string, boolean] => [n, true]), ...PROTECTED_FILES.map((n): [string, boolean] => [n, false])];
  // All at once (off the main thread, in libuv's pool); if any fails, the others' fds are closed.
  const settled = await Promise.allSettled(entries.map(([name, isDir]) => protectName(workspace, name, isDir)));
  const handles = settled.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) {
    closeProtected(handles);
    throw failed.reason;
  }
  return handles;
}

export function closeProtected(handles: ProtectedHandle[]): void {
  for (const h of handles) {
    try {
      fs.closeSync(h.fd);
    } catch {
      // already closed
    }
  }
}
