import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { AttachResult, ExportResult } from '../../../src-preload/contract/workspace';
import { AppError } from '../../../src-preload/contract/errors';
import type { Core } from '../core';
import { exportContributors } from '../export/contributors';
import { exportSession } from '../export/exportSession';

/** Writes an attached file into the session workspace under uploads/, never over another file. */
export function attachFile(core: Core, sessionId: string, name: string, base64: string): AttachResult {
  core.ledger.sessions.require(sessionId);
  const bytes = Buffer.from(base64, 'base64');
  const workspace = core.kernels.workspaceFor(sessionId);
  const dir = path.join(workspace, 'uploads');
  fs.mkdirSync(dir, { recursive: true });
  const ext = path.extname(name);
  const stem = name.slice(0, name.length - ext.length);
  let candidate = name;
  for (let n = 2; fs.existsSync(path.join(dir, candidate)); n++) candidate = `${stem} (${n})${ext}`;
  const file = path.join(dir, candidate);
  if (path.dirname(file) !== dir) throw new AppError('invalid_input', `"${name}" is not a plain file name.`);
  fs.writeFileSync(file, bytes, { flag: 'wx' });
  return { path: `uploads/${candidate}`, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') };
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
