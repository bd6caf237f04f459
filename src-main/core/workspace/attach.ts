import { createHash } from 'node:crypto';
import path from 'node:path';
import type { AttachResult } from '../../../src-preload/contract/workspace';
import { AppError } from '../../../src-preload/contract/errors';
import { writeWorkspaceFile } from './safeFs';

/** Writes an attached file into a workspace under uploads/, never over another file. */
export function attachFile(workspace: string, name: string, base64: string): AttachResult {
  if (!name || name === '.' || name === '..' || /[/\\\0]/.test(name)) throw new AppError('invalid_input', `"${name}" is not a plain file name.`);
  const bytes = Buffer.from(base64, 'base64');
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  // Exclusive creation through safeFs: an existing name (or a symlink a cell planted)
  // is never written through; the next free "name (n).ext" is taken instead.
  for (let n = 1; ; n++) {
    const candidate = n === 1 ? name : `${stem} (${n})${ext}`;
    try {
      const { rel } = writeWorkspaceFile(workspace, `uploads/${candidate}`, bytes, { exclusive: true });
      return { path: rel, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
    } catch (error) {
      // O_CREAT|O_EXCL reports an existing entry, symlinks included, as EEXIST.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (n >= 1000) throw new AppError('invalid_input', `uploads/ already holds 1000 files named like "${name}"; rename the file and attach it again.`);
    }
  }
}
