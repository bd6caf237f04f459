import fs from 'node:fs';
import path from 'node:path';
import { workspacesRoot } from '../core/workspace/sessionWorkspace';
import { existingPart, isInside, realPathOf } from './realPath';

/**
 * The check before a CLI command writes into a folder the user named (`science --out`),
 * made before any network call so a bad folder costs nothing: Node’s recursive mkdir never
 * returns under /proc, and a file where the folder should be surfaced as a raw EEXIST.
 */

/** Kernel and device trees: never a download folder, and mkdir there may hang. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev'];

/** Why `dir` cannot be the folder a command writes into (it is created when missing), as one sentence, or null when it can. */
export function outFolderProblem(dir: string, dataDir: string): string | null {
  const wanted = path.resolve(dir);
  const found = existingPart(wanted);
  const real = path.join(found.real, ...found.missing);
  const tree = SYSTEM_TREES.find((t) => process.platform !== 'win32' && (isInside(wanted, t) || isInside(real, t)));
  if (tree) return `--out ${wanted} is under ${tree}, a system folder; give a folder of your own.`;
  // The app's own files (ledger, keys, kernels' caches) are no download folder; a session's workspace is.
  const root = realPathOf(dataDir);
  const inRoot = isInside(real, root) || isInside(wanted, path.resolve(dataDir));
  if (inRoot && !isInside(real, realPathOf(workspacesRoot(dataDir)))) {
    return `--out ${wanted} is inside the app’s data folder (${root}); give a folder outside it, or --session ID to download into that session’s workspace.`;
  }
  let isFolder = false;
  try {
    isFolder = fs.statSync(found.given).isDirectory();
  } catch {
    isFolder = false;
  }
  if (isFolder) return null;
  if (found.given === wanted) return `--out ${wanted} exists and is not a folder; give a folder (it is created when missing).`;
  return `--out ${wanted} cannot be created: ${found.given} is not a folder; give a folder (it is created when missing).`;
}
