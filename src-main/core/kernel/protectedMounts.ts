import fs from 'node:fs';
import path from 'node:path';
import { PROTECTED_DIRS, PROTECTED_FILES } from '../security/protectedPaths';

/** O_PATH: an fd that names a file without opening it for reading (Linux). */
const O_PATH = 0o10000000;

export interface ProtectedHandle {
  name: string;
  fd: number;
}

function openPath(file: string): number {
  return fs.openSync(file, O_PATH | fs.constants.O_NOFOLLOW);
}

/** Creates an empty placeholder for a missing protected name; false when it exists meanwhile. */
function createPlaceholder(file: string, isDir: boolean): void {
  try {
    if (isDir) fs.mkdirSync(file, { mode: 0o700 });
    else fs.closeSync(fs.openSync(file, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW, 0o600));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
}

/**
 * Handles on every protected name at the workspace root, for bwrap to mount read-only
 * over itself (`--ro-bind-fd`). Each is opened with O_PATH|O_NOFOLLOW, so what gets
 * mounted is exactly the object checked here, never a symlink's target, even if a cell
 * of another kernel swaps names meanwhile. A missing name gets an empty placeholder
 * (folder 0700 or file 0600), because a mount needs something to sit on: that is what a
 * sandboxed kernel leaves on the host. A symlink at a protected name is removed (never
 * its target) and replaced by a placeholder: nothing in the sandbox may resolve it.
 */
export function openProtectedNames(workspace: string): ProtectedHandle[] {
  const handles: ProtectedHandle[] = [];
  const entries: [string, boolean][] = [...PROTECTED_DIRS.map((n): [string, boolean] => [n, true]), ...PROTECTED_FILES.map((n): [string, boolean] => [n, false])];
  try {
    for (const [name, isDir] of entries) {
      const file = path.join(workspace, name);
      let fd: number | null = null;
      for (let attempt = 0; attempt < 3 && fd === null; attempt++) {
        try {
          const opened = openPath(file);
          if (fs.fstatSync(opened).isSymbolicLink()) {
            fs.closeSync(opened);
            fs.unlinkSync(file);
            continue;
          }
          fd = opened;
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code !== 'ENOENT') throw error;
          createPlaceholder(file, isDir);
        }
      }
      if (fd === null) throw new Error(`cannot protect ${name} in the workspace: it keeps changing`);
      handles.push({ name, fd });
    }
  } catch (error) {
    closeProtected(handles);
    throw error;
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
