import fs from 'node:fs';
import path from 'node:path';
import type { ArtifactVersion } from '../../../src-preload/contract/artifacts';
import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import type { ArtifactService } from './service';

/**
 * Figures a cell left (displays the host saved into the workspace, e.g. matplotlib PNGs)
 * become artifact versions with the cell as producer. A display path that leaves the
 * workspace or no longer exists is skipped and reported, never followed.
 */
export async function captureFigures(
  artifacts: ArtifactService,
  cell: KernelCellResult,
  workspace: string,
  inputEvidence: string[] = [],
): Promise<{ saved: ArtifactVersion[]; skipped: string[] }> {
  const saved: ArtifactVersion[] = [];
  const skipped: string[] = [];
  const root = path.resolve(workspace);
  for (const d of cell.displays) {
    if (!d.path) continue;
    const abs = path.resolve(root, d.path);
    if (!abs.startsWith(root + path.sep)) {
      skipped.push(`${d.path}: outside the workspace`);
      continue;
    }
    let bytes: Buffer;
    try {
      bytes = fs.readFileSync(abs);
    } catch (error) {
      skipped.push(`${d.path}: ${(error as NodeJS.ErrnoException).code ?? 'unreadable'}`);
      continue;
    }
    saved.push(
      await artifacts.save({
        sessionId: cell.sessionId,
        path: path.relative(root, abs).split(path.sep).join('/'),
        bytes,
        producer: { kind: 'cell', cellId: cell.cellId, generation: cell.generation, language: cell.language },
        inputEvidence,
      }),
    );
  }
  return { saved, skipped };
}
