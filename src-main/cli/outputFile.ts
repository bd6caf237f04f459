import fs from 'node:fs';
import path from 'node:path';
import { fileKind } from '../core/shared/fileKind';
import { isInside, realPathOf } from './realPath';

/**
 * The checks before a CLI command writes a file the user named (`export -o`,
 * `bibliography --out`): never into the app's data folder (its ledger, its signing key),
 * never over something that is not a regular file (a folder, a device such as /dev/full, a
 * fifo, a symlink), never into a folder that does not exist (a typo would build that tree),
 * and never over an existing file unless `--force` was given.
 */

/** Why `file` may not be written, as one sentence, or null when it may. */
export function outputFileProblem(file: string, dataDir: string, force: boolean): string | null {
  const given = path.resolve(file);
  // The folder's real path (a symlinked folder may lead into the data root) and the name as given.
  const target = path.join(realPathOf(path.dirname(given)), path.basename(given));
  const root = realPathOf(dataDir);
  if (isInside(target, root) || isInside(given, path.resolve(dataDir))) {
    return `${given} is inside the app’s data folder (${root}); choose a path outside it.`;
  }
  // A typo in the folder (`-o ~/Dokuments/x.zip`) must not build that folder tree.
  let folder: fs.Stats | undefined | null;
  try {
    folder = fs.statSync(path.dirname(given), { throwIfNoEntry: false });
  } catch {
    folder = null; // ENOTDIR, EACCES: the write itself reports it in its own words
  }
  if (folder === undefined) return `the folder ${path.dirname(given)} does not exist; create it first, or choose a file in an existing folder.`;
  let stats: fs.Stats | undefined;
  try {
    stats = fs.lstatSync(target, { throwIfNoEntry: false });
  } catch {
    stats = undefined; // ENOTDIR, EACCES: the write itself reports it in its own words
  }
  if (!stats) return null;
  if (!stats.isFile()) return `${given} is ${fileKind(stats)}, not a file; give the path of a new file.`;
  if (!force) return `${given} already exists; give --force to replace it, or choose another name.`;
  return null;
}
