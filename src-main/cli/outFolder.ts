import fs from 'node:fs';
import path from 'node:path';

/**
 * The check before a CLI command writes into a folder the user named (`science --out`),
 * made before any network call so a bad folder costs nothing: Node’s recursive mkdir never
 * returns under /proc, and a file where the folder should be surfaced as a raw EEXIST.
 */

/** Kernel and device trees: never a download folder, and mkdir there may hang. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev'];

const isInside = (child: string, root: string) => child === root || child.startsWith(root + path.sep);

/** The deepest part of `p` that exists, with its real path (symlinks resolved), and the part still missing. */
function existingPart(p: string): { real: string; given: string; missing: string[] } {
  const missing: string[] = [];
  let given = p;
  for (;;) {
    try {
      return { real: fs.realpathSync(given), given, missing: missing.reverse() };
    } catch {
      const parent = path.dirname(given);
      if (parent === given) return { real: given, given, missing: missing.reverse() };
      missing.push(path.basename(given));
      given = parent;
    }
  }
}

/** Why `dir` cannot be the folder a command writes into (it is created when missing), as one sentence, or null when it can. */
export function outFolderProblem(dir: string): string | null {
  const wanted = path.resolve(dir);
  const found = existingPart(wanted);
  const real = path.join(found.real, ...found.missing);
  const tree = SYSTEM_TREES.find((t) => process.platform !== 'win32' && (isInside(wanted, t) || isInside(real, t)));
  if (tree) return `--out ${wanted} is under ${tree}, a system folder; give a folder of your own.`;
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
