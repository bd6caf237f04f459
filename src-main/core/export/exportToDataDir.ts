import path from 'node:path';
import type { ExportResult } from '../../../src-preload/contract/workspace';
import type { SessionsRepo } from '../ledger/sessionsRepo';
import { exportSession, type ExportContributor, type ExportSources } from './exportSession';

export interface ExportToDataDirDeps extends ExportSources {
  readonly ledger: ExportSources['ledger'] & { readonly sessions: Pick<SessionsRepo, 'require'> };
  readonly contributors: readonly ExportContributor[];
  /** Shows the file in the OS file manager; null where there is none (CLI, tests). */
  readonly revealPath: ((file: string) => Promise<void>) | null;
}

/** Exports a session to `<data root>/exports/<title>-<time>.zip` and shows it in the file manager. */
export async function exportToDataDir(deps: ExportToDataDirDeps, sessionId: string, reveal: boolean): Promise<ExportResult> {
  const session = deps.ledger.sessions.require(sessionId);
  const safeTitle = session.title.replace(/[^\p{L}\p{N}_-]+/gu, '-').replace(/^-+|-+$/g, '').slice(0, 60) || 'session';
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  const file = path.join(deps.config.dataDir, 'exports', `${safeTitle}-${stamp}.zip`);
  const manifest = exportSession(deps, sessionId, file, deps.contributors);
  let revealed = false;
  if (reveal && deps.revealPath) {
    await deps.revealPath(file);
    revealed = true;
  }
  return { file, files: manifest.files.length, digest: manifest.digest, revealed };
}
