import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { makeDirs } from './makeDirs';

/** Each failed write in one sentence that names the problem and the fix (no raw errno text). */
function writeProblem(file: string, error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  const folder = path.dirname(file);
  switch (code) {
    case 'EACCES':
    case 'EPERM':
      return `cannot write ${file}: permission denied in ${folder}; choose a folder you can write to.`;
    case 'EISDIR':
      return `${file} is a folder; give a file name inside it.`;
    case 'ENOTDIR':
    case 'EEXIST':
      return `cannot write ${file}: a part of its folder path is a file, not a folder; choose another path.`;
    case 'ENOSPC':
    case 'EDQUOT':
      return `cannot write ${file}: the disk is full; free some space or choose another disk.`;
    case 'EROFS':
      return `cannot write ${file}: ${folder} is on a read-only disk; choose a writable folder.`;
    default:
      return `cannot write ${file} (${code ?? String(error)}); choose another path.`;
  }
}

/**
 * Writes `bytes` to `file` whole or not at all: into a new, uniquely named `.partial` file
 * beside it (O_EXCL, so a planted file or symlink of that name is never written through),
 * then renamed over `file`. On any failure the partial file is removed and the error is one
 * line naming the problem and the fix. Callers decide beforehand whether `file` may be
 * replaced (see the CLI's output checks): the rename replaces whatever entry is there.
 */
export function writeFileAtomic(file: string, bytes: Uint8Array | string): void {
  const target = path.resolve(file);
  const tmp = `${target}.${randomBytes(4).toString('hex')}.partial`;
  try {
    makeDirs(path.dirname(target));
    fs.writeFileSync(tmp, bytes, { flag: 'wx' });
    fs.renameSync(tmp, target);
  } catch (error) {
    try {
      fs.rmSync(tmp, { force: true });
    } catch {
      // Nothing was created where the path cannot hold a file (ENOTDIR): nothing to remove.
    }
    throw new Error(writeProblem(target, error));
  }
}
