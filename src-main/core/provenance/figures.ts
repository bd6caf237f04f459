import type { ArtifactVersion } from '../../../src-preload/contract/artifacts';
import type { KernelCellResult } from '../../../src-preload/contract/kernel';
import { readWorkspaceFile } from '../workspace/safeFs';
import type { ArtifactService } from './artifactService';
import { errorMessage } from '../shared/errorMessage';

/**
 * Figures a cell left (displays the host saved into the workspace, e.g. matplotlib PNGs)
 * become artifact versions with the cell as producer. A display path that leaves the
 * workspace, is a symlink or no longer exists is skipped and reported, never followed.
 */
export async function captureFigures(
  artifacts: ArtifactService,
  cell: KernelCellResult,
  workspace: string,
  inputEvidence: string[] = [],
): Promise<{ saved: ArtifactVersion[]; skipped: string[] }> {
  const saved: ArtifactVersion[] = [];
  const skipped: string[] = [];
  // Each figure's PNG, then its SVG and PDF when the kernel drew them (issue 25): all versions of the cell.
  for (const figurePath of cell.displays.flatMap((d) => [d.path, d.svgPath, d.pdfPath].filter((p): p is string => Boolean(p)))) {
    // Read without following symlinks: the cell may have replaced the figure meanwhile.
    let file: { rel: string; bytes: Buffer };
    try {
      file = readWorkspaceFile(workspace, figurePath);
    } catch (error) {
      skipped.push(`${figurePath}: ${(error as NodeJS.ErrnoException).code ?? errorMessage(error)}`);
      continue;
    }
    saved.push(
      await artifacts.save({
        sessionId: cell.sessionId,
        path: file.rel,
        bytes: file.bytes,
        producer: { kind: 'cell', cellId: cell.cellId, generation: cell.generation, language: cell.language },
        inputEvidence,
      }),
    );
  }
  return { saved, skipped };
}
