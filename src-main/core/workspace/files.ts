import { createHash } from 'node:crypto';
import path from 'node:path';
import type { AttachResult, ExportResult } from '../../../src-preload/contract/workspace';
import { AppError } from '../../../src-preload/contract/errors';
import type { Core } from '../core';
import { exportContributors } from '../export/contributors';
import { exportSession } from '../export/exportSession';
import { writeWorkspaceFile } from './safeFs';

/** Writes an attached file into the session workspace under uploads/, never over another file. */
export function attachFile(core: Core, sessionId: string, name: string, base64: string): AttachResult {
  core.ledger.sessions.require(sessionId);
  if (!name || name === '.' || name === '..' || /[/\\\0]/.test(name)) throw new AppError('invalid_input', `"${name}" is not a plain file name.`);
  const bytes = Buffer.from(base64, 'base64');
  const workspace = core.kernels.workspaceFor(sessionId);
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

/** Exports a session to `<data root>/exports/<title>-<time>.zip` and shows it in the file manager. */
export async function exportToDataDir(core: Core, sessionId: string, reveal: boolean): Promise<ExportResult> {
  const session = core.ledger.sessions.require(sessionId);
  const safeTitle = session.title.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'session';
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(core.config.dataDir, 'exports', `${safeTitle}-${stamp}.zip`);
  const manifest = exportSession(core, sessionId, file, exportContributors(core));
  let revealed = false;
  if (reveal && core.revealPath) {
    await core.revealPath(file);
    revealed = true;
  }
  return { file, files: manifest.files.length, digest: manifest.digest, revealed };
}
